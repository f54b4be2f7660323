import ArgumentParser
import AxonRecording
import Foundation

extension Axon {
    /// Converts a recording to another format: Axon CSV, EDF+ or BDF+ by OUT's extension.
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert a recording (any format axon reads) to Axon CSV (.csv), EDF+ (.edf) or BDF+ (.bdf).")

        @Argument(help: "The recording to read.")
        var input: String

        @Argument(help: "The file to write: .csv (Axon CSV), .edf (EDF+, 16-bit) or .bdf (BDF+, 24-bit).")
        var output: String

        @OptionGroup var reading: RecordingReadOptions

        @Option(help: "Physical range LOW,HIGH of every channel in EDF/BDF; default: each channel's declared range, else the format's default.")
        var range: String?

        @Option(help: "Channels to keep, by label (comma-separated); default all.")
        var channels: String?

        @Option(help: "Convert from this second.")
        var from: Double?

        @Option(help: "Convert up to this second.")
        var to: Double?

        @Flag(help: "Replace OUT if it exists (it is written beside it and renamed over it when complete).")
        var force = false

        private var fileExtension: String { URL(fileURLWithPath: output).pathExtension.lowercased() }

        func validate() throws {
            guard ["csv", "edf", "bdf"].contains(fileExtension) else {
                throw ValidationError("OUT must end in .csv (Axon CSV), .edf (EDF+) or .bdf (BDF+)")
            }
        }

        func run() throws {
            // Before reading anything: an existing file is refused at once.
            if !force, FileManager.default.fileExists(atPath: output) { throw OutputFileError.exists(path: output) }
            var recording = try reading.read(path: input)
            if let channels {
                recording = try recording.selecting(
                    channels: channels.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
            if from != nil || to != nil {
                recording = try recording.segment(from: from ?? 0, to: to ?? recording.duration)
            }
            if fileExtension == "csv" {
                let skipped = try OutputFile.write(to: output, replace: force) { try AxonCSVWriter.write(recording, to: $0) }
                print(
                    "axon convert: \(input) → \(output) (Axon CSV): \(recording.frameCount) frames × "
                        + "\(recording.channelCount) channels at \(fmt(recording.sampleRate, 3)) Hz")
                if skipped > 0 { print("  \(skipped) markers not written (Axon CSV v1 has no marker column)") }
            } else {
                let format: EDFWriter.Format = fileExtension == "bdf" ? .bdfPlus : .edfPlus
                let range = try PhysicalRangeOption.parse(range)
                let result = try OutputFile.write(to: output, replace: force) {
                    try EDFConversion.write(recording, to: $0, format: format, range: range)
                }
                print(
                    "axon convert: \(input) → \(output) (\(format == .bdfPlus ? "BDF+" : "EDF+")): "
                        + "\(recording.frameCount) frames × \(recording.channelCount) channels at "
                        + "\(fmt(recording.sampleRate, 3)) Hz, \(result.records) records, "
                        + "\(result.annotations) annotations")
                for (label, clipped) in zip(recording.channelLabels, result.clipped) where clipped > 0 {
                    print("  \(label): \(clipped) samples clipped to the physical range (use --range or .bdf)")
                }
            }
            for warning in recording.warnings { print("  warning: \(warning)") }
        }
    }
}
