import ArgumentParser
import AxonRecording
import Foundation

extension Axon {
    /// Converts a recording to another format (for now: Axon CSV).
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert a recording (any format axon reads) to Axon CSV (OUT ending in .csv).")

        @Argument(help: "The recording to read.")
        var input: String

        @Argument(help: "The file to write; must end in .csv (Axon CSV).")
        var output: String

        @Option(help: "Channels to keep, by label (comma-separated); default all.")
        var channels: String?

        @Option(help: "Convert from this second.")
        var from: Double?

        @Option(help: "Convert up to this second.")
        var to: Double?

        func validate() throws {
            guard output.lowercased().hasSuffix(".csv") else {
                throw ValidationError(
                    "axon convert writes Axon CSV only for now: OUT must end in .csv "
                        + "(EDF/BDF output will come with the EDF writer)")
            }
        }

        func run() throws {
            var recording = try RecordingReader.read(path: input)
            if let channels {
                recording = try recording.selecting(
                    channels: channels.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
            if from != nil || to != nil {
                recording = try recording.segment(from: from ?? 0, to: to ?? recording.duration)
            }
            let skipped = try AxonCSVWriter.write(recording, to: output)
            print(
                "axon convert: \(input) → \(output) (Axon CSV): \(recording.frameCount) frames × "
                    + "\(recording.channelCount) channels at \(fmt(recording.sampleRate, 3)) Hz")
            if skipped > 0 { print("  \(skipped) markers not written (Axon CSV v1 has no marker column)") }
            for warning in recording.warnings { print("  warning: \(warning)") }
        }
    }
}
