import ArgumentParser
import AxonDSP
import AxonRecording
import AxonStreams
import Foundation

extension Axon {
    /// Converts a recording to another format: Axon CSV, EDF+, BDF+, XDF or BrainVision by OUT's extension,
    /// refusing to lose anything unless `--allow-lossy`.
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Convert a recording (any format axon reads) to Axon CSV (.csv), EDF+ (.edf), BDF+ (.bdf), XDF "
                + "(.xdf) or BrainVision (.vhdr, with .eeg and .vmrk beside it).",
            discussion: """
                EDF/BDF ranges are chosen per channel from the data (a first pass over the file), so the \
                quantisation step is far below the signal; each channel's range, step and RMS are printed. Anything \
                lossy — samples clipped to the range, a step larger than 1 % of the channel's RMS, a rate or label \
                EDF cannot carry, an annotation cut — is an error (exit 1) and nothing is written, unless \
                --allow-lossy, which writes the file and prints each loss. Axon CSV and XDF keep every value exactly. \
                BrainVision keeps every value when they are 32-bit floats (IEEE_FLOAT_32) or whole multiples of a \
                resolution per channel (INT_16/INT_32); otherwise the float rounding is a loss.
                """)

        @Argument(help: "The recording to read.")
        var input: String

        @Argument(
            help: ArgumentHelp(
                "The file to write: .csv (Axon CSV), .edf (EDF+, 16-bit), .bdf (BDF+, 24-bit), .xdf (XDF) or .vhdr "
                    + "(BrainVision: OUT.vhdr, OUT.eeg, OUT.vmrk)."))
        var output: String

        @OptionGroup var reading: RecordingReadOptions
        @OptionGroup var anonymization: AnonymizeOptions

        @Option(
            parsing: .unconditional,
            help: "Physical range LOW,HIGH of every channel in EDF/BDF; default: each channel's from its data.")
        var range: String?

        @Option(help: "Channels to keep, by label (comma-separated); default all.")
        var channels: String?

        @Option(help: "Convert from this second.")
        var from: Double?

        @Option(help: "Convert up to this second.")
        var to: Double?

        @OptionGroup(title: "Filters (zero-phase, every channel, before writing; the file's metadata records them)")
        var filters: FilterOptions

        @Flag(help: "Write the file even if something is lost (clipping, a coarse step, a cut label); print each loss.")
        var allowLossy = false

        @Flag(
            help: ArgumentHelp(
                "Replace OUT if it exists (it is written beside it and renamed over it when complete); for .vhdr "
                    + "also the .eeg and .vmrk beside it."))
        var force = false

        private var fileExtension: String { URL(fileURLWithPath: output).pathExtension.lowercased() }

        func validate() throws {
            guard ["csv", "edf", "bdf", "xdf", "vhdr"].contains(fileExtension) else {
                throw ValidationError(
                    "OUT must end in .csv (Axon CSV), .edf (EDF+), .bdf (BDF+), .xdf (XDF) or .vhdr (BrainVision)")
            }
            if range != nil, !["edf", "bdf"].contains(fileExtension) {
                throw ValidationError("--range is for .edf and .bdf files")
            }
        }

        func run() throws {
            // Before reading anything: an existing file is refused at once.
            if !force {
                let companions = BrainVisionWriter.companionPaths(ofHeader: output)
                let written = fileExtension == "vhdr" ? [output, companions.data, companions.markers] : [output]
                for path in written where FileManager.default.fileExists(atPath: path) {
                    throw OutputFileError.exists(path: path)
                }
            }
            var recording = try reading.read(path: input)
            if let channels {
                recording = try recording.selecting(
                    channels: channels.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
            // The whole file, before any segment: the segment's edges then see no padding.
            recording = try filters.filtered(recording)
            if from != nil || to != nil {
                recording = try recording.segment(from: from ?? 0, to: to ?? recording.duration)
            }
            let head = "axon convert: \(input) → \(output)"
            if !recording.companions.isEmpty, fileExtension == "csv" || fileExtension == "vhdr" {
                // Axon CSV and BrainVision hold one rate: the other streams would be dropped.
                let loss =
                    "\(fileExtension == "csv" ? "Axon CSV" : "BrainVision") holds one rate: "
                    + "\(Self.streamsText(recording.companions)) would be left out"
                guard allowLossy else {
                    printError("  loss: \(loss)")
                    printError(
                        "axon convert: not written: the conversion would lose what is listed above. Use .xdf, .edf or "
                            + ".bdf (every rate kept), --channels, or --allow-lossy to write it anyway.")
                    throw ExitCode.failure
                }
                print("  loss: \(loss)")
                recording = recording.withCompanions([])
            }
            let shape =
                "\(recording.frameCount) frames × \(recording.channelCount) channels at "
                + "\(fmt(recording.sampleRate, 3)) Hz"
            switch fileExtension {
            case "csv":
                try OutputFile.write(to: output, replace: force) {
                    try AxonCSVWriter.write(recording, to: $0, anonymization: anonymization.value)
                }
                print("\(head) (Axon CSV): \(shape), \(recording.markers.count) markers; every value exact")
                print("  start       \(Self.startText(recording))")
            case "xdf":
                let result = try OutputFile.write(to: output, replace: force) {
                    try XDFConversion.write(recording, to: $0, anonymization: anonymization.value)
                }
                print("\(head) (XDF): \(shape), \(result.markers) markers; every value exact (double64)")
                for companion in recording.companions { print("  and a stream of \(Self.shapeText(companion))") }
                print("  start       \(Self.startText(recording))")
                if recording.counters != nil { print("  note: device counters are not carried by XDF") }
                if filters.isActive { print("  note: XDF's stream header does not record the filters below") }
            case "vhdr":
                try convertToBrainVision(recording, head: head, shape: shape)
            default:
                try convertToEDF(recording, head: head, shape: shape)
            }
            if let filtered = filters.summary(.zeroPhase, sampleRate: recording.sampleRate) {
                print("  filtered    \(filtered)")
                if !recording.companions.isEmpty {
                    print("  note: the filters ran on the main stream only, not on "
                        + Self.streamsText(recording.companions))
                }
            }
            if let line = anonymization.summary { print(line) }
            for warning in recording.warnings { print("  warning: \(warning)") }
        }

        private func convertToEDF(_ source: Recording, head: String, shape: String) throws {
            let format: EDFWriter.Format = fileExtension == "bdf" ? .bdfPlus : .edfPlus
            let name = format == .bdfPlus ? "BDF+" : "EDF+"
            var recording = source
            // What cannot go into the file at all: losses, refused below unless --allow-lossy.
            var dropped: [String] = []
            if let problem = EDFConversion.companionProblem(recording) {
                // Only the main stream can go.
                dropped.append(
                    "\(Self.streamsText(recording.companions)) would be left out: \(problem); .xdf keeps every stream")
                recording = recording.withCompanions([])
            }
            // A data channel with the label the format gives its annotation signal would be read as annotations.
            let labels = recording.streams.flatMap(\.channelLabels)
            if labels.contains(format.annotationLabel), labels.count > 1 {
                dropped.append(
                    "\(format.annotationLabel): \(name) gives this label to its annotation signal, so the channel "
                        + "would be left out")
                recording = try recording.selecting(channels: labels.filter { $0 != format.annotationLabel })
            }
            guard let recordDuration = EDFConversion.recordDuration(for: recording) else {
                let rates = recording.streams.map { fmt($0.sampleRate, 6) + " Hz" }.joined(separator: " and ")
                printError(
                    "axon convert: \(name) cannot carry \(rates): no data record of 0.1…10 s holds a whole number of "
                        + "samples\(recording.companions.isEmpty ? "" : " of each"); convert to .xdf instead")
                throw ExitCode.failure
            }
            var plans: [EDFChannelPlan] = []
            for stream in recording.streams {
                plans += try EDFChannelPlan.plan(stream, format: format, range: PhysicalRangeOption.parse(range))
            }
            var losses = dropped
            for plan in plans {
                if plan.clipped > 0 {
                    losses.append(
                        "\(plan.label): \(plan.clipped) samples outside the range "
                            + "\(Self.number(plan.range.lowerBound, 7))…\(Self.number(plan.range.upperBound, 7)) "
                            + "\(plan.unit) (data \(Self.number(plan.minimum, 7))…\(Self.number(plan.maximum, 7))) "
                            + "would be clipped")
                }
                if plan.isCoarse {
                    losses.append(
                        "\(plan.label): step \(Self.number(plan.step)) \(plan.unit) is "
                            + "\(fmt(100 * plan.stepFraction, 2)) % of the RMS \(Self.number(plan.rms)) \(plan.unit) "
                            + "(more than \(fmt(100 * EDFChannelPlan.maximumStepFraction, 0)) %)")
                }
            }
            for channel in recording.streams.flatMap(\.descriptor.channels) {
                if channel.label.utf8.count > 16 {
                    losses.append("\(channel.label): the label is cut to EDF's 16 characters")
                }
                if channel.unit.unicodeScalars.filter({ $0 != "µ" && $0 != "μ" }).count > 8 {
                    losses.append("\(channel.label): the unit \"\(channel.unit)\" is cut to EDF's 8 characters")
                }
            }
            let longest = recording.markers.map { ($0.text ?? "").utf8.count }.max() ?? 0
            if longest > 600 { losses.append("annotations longer than 600 bytes are cut to fit a data record") }

            print("\(head) (\(name)): \(shape)")
            for companion in recording.companions {
                print("  and \(Self.shapeText(companion)), each signal at its own rate")
            }
            func column(_ text: String, _ width: Int) -> String {
                text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
            }
            print(
                "  " + column("channel", 12) + " " + column("range (header)", 36) + " " + column("step", 11) + " "
                    + column("RMS", 11) + " " + column("step/RMS", 10) + " clipped")
            for plan in plans {
                let range = "\(Self.number(plan.range.lowerBound, 7))…\(Self.number(plan.range.upperBound, 7)) "
                    + "\(plan.unit) (\(plan.source.rawValue))"
                let fraction = plan.rms > 0 ? String(format: "%.3g %%", 100 * plan.stepFraction) : "flat"
                print(
                    "  " + column(plan.label, 12) + " " + column(range, 36) + " " + column(Self.number(plan.step), 11)
                        + " " + column(Self.number(plan.rms), 11) + " " + column(fraction, 10) + " \(plan.clipped)")
            }
            print(
                "  (step: one digital step of the file; RMS: the signal's, each value minus its 1-second mean; a step "
                    + "over \(fmt(100 * EDFChannelPlan.maximumStepFraction, 0)) % of it is a loss)")
            if !losses.isEmpty && !allowLossy {
                for loss in losses { printError("  loss: \(loss)") }
                printError(
                    "axon convert: not written: the conversion would lose what is listed above. Use .bdf (24-bit), "
                        + "--range, --highpass HZ for large offsets, .xdf or .csv (exact), or --allow-lossy to write "
                        + "it anyway.")
                throw ExitCode.failure
            }
            let result = try OutputFile.write(to: output, replace: force) {
                try EDFConversion.write(
                    recording, to: $0, format: format, plans: plans, anonymization: anonymization.value)
            }
            print(
                "  wrote \(result.records) records of \(fmt(recordDuration, 2)) s, \(result.annotations) annotations"
                    + (result.padded > 0
                        ? "; the last record padded with \(result.padded) samples of each channel's last value" : ""))
            print("  start       \(Self.startText(recording))"
                + (result.startIsKnown ? "" : " — written as EDF+'s unknown start (Startdate X, 01.01.85)"))
            if recording.counters != nil { print("  note: device counters are not carried by \(name)") }
            if let jitter = Self.timestampJitter(recording), jitter > 0.5 / recording.sampleRate {
                print(
                    "  note: the source's per-sample times stray up to \(fmt(jitter * 1000, 1)) ms from start + "
                        + "frame ÷ rate; \(name) keeps the start and the nominal rate")
            }
            for loss in losses { print("  loss: \(loss)") }
        }

        private func convertToBrainVision(_ recording: Recording, head: String, shape: String) throws {
            let plan = BrainVisionPlan(recording)
            print("\(head) (BrainVision): \(shape)")
            let resolutions = zip(recording.descriptor.channels, plan.resolutions).map { channel, resolution in
                "\(Self.number(resolution, 10)) \(channel.unit.isEmpty ? "(no unit)" : channel.unit)"
            }
            let distinct = Array(Set(resolutions)).sorted()
            print(
                "  coding      \(plan.binaryFormat), resolution "
                    + (distinct.count == 1 ? distinct[0] : resolutions.joined(separator: ", "))
                    + (plan.isLossy ? "" : "; every value exact"))
            if plan.isLossy, !allowLossy {
                for loss in plan.losses { printError("  loss: \(loss)") }
                printError(
                    "axon convert: not written: the conversion would lose what is listed above. Use .xdf or .csv "
                        + "(exact), or --allow-lossy to write it anyway.")
                throw ExitCode.failure
            }
            let result = try BrainVisionWriter.write(
                recording, to: output, plan: plan, replace: force, anonymization: anonymization.value)
            print(
                "  wrote       \(output), \(result.dataPath) (\(result.dataBytes) bytes), \(result.markerPath) "
                    + "(\(result.markers) markers"
                    + (result.gaps > 0 ? ", \(result.gaps) gaps as New Segment markers" : "") + ")")
            print("  start       \(Self.startText(recording))" + (result.startIsKnown ? "" : " — no date written"))
            if result.rateReadBack != recording.sampleRate {
                print(
                    "  note: the sampling interval \(1e6 / recording.sampleRate) µs reads back as "
                        + "\(result.rateReadBack) Hz")
            }
            if recording.counters != nil { print("  note: device counters are not carried by BrainVision") }
            if let jitter = Self.timestampJitter(recording), jitter > 0.5 / recording.sampleRate {
                print(
                    "  note: the source's per-sample times stray up to \(fmt(jitter * 1000, 1)) ms from start + "
                        + "frame ÷ rate; BrainVision keeps the start and the nominal rate")
            }
            for loss in plan.losses { print("  loss: \(loss)") }
        }

        /// `the stream Resp at 12.800 Hz`, `the streams …; …`: streams a conversion names in a loss.
        static func streamsText(_ streams: [Recording]) -> String {
            "the stream\(streams.count == 1 ? "" : "s") "
                + streams.map { "\($0.channelLabels.joined(separator: ", ")) at \(fmt($0.sampleRate, 3)) Hz" }
                    .joined(separator: "; ")
        }

        /// `128 frames × 1 channels at 12.800 Hz (Resp)`: one stream a conversion writes besides the main one.
        static func shapeText(_ stream: Recording) -> String {
            "\(stream.frameCount) frames × \(stream.channelCount) channels at \(fmt(stream.sampleRate, 3)) Hz "
                + "(\(stream.channelLabels.joined(separator: ", ")))"
        }

        /// The start as people read it, or why there is none.
        static func startText(_ recording: Recording) -> String {
            guard let start = EDFConversion.start(of: recording) else {
                return recording.startTime == nil
                    ? "unknown (the source has no date)"
                    : "unknown (the source's times, from \(fmt(recording.startTime!, 3)) s, are not dates)"
            }
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: Date(timeIntervalSince1970: start))
        }

        /// The largest distance of a timestamp from start + frame ÷ rate, or nil without timestamps.
        static func timestampJitter(_ recording: Recording) -> Double? {
            guard let timestamps = recording.timestamps, let first = timestamps.first else { return nil }
            var worst = 0.0
            for (frame, time) in timestamps.enumerated() {
                worst = max(worst, abs(time - first - Double(frame) / recording.sampleRate))
            }
            return worst
        }

        /// A number with `digits` significant digits (4 by default).
        static func number(_ value: Double, _ digits: Int = 4) -> String { String(format: "%.\(digits)g", value) }
    }
}

/// Prints a line on standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
