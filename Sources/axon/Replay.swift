import ArgumentParser
import AxonEEG
import AxonRecording
import AxonStreams
import Foundation

extension Axon {
    /// Plays a recording file through the EEG engine (replay → ring → engine), printing spectra rows and zones.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a recording (EDF/BDF, BrainVision, FIF, XDF, Axon CSV, OpenBCI, Muse) through the EEG "
                + "engine in real time (any speed) or as fast as possible; print each spectrum's dominant frequencies "
                + "and the zones.")

        @Argument(help: "The recording.")
        var file: String

        @OptionGroup var reading: RecordingReadOptions

        @Option(help: "Replay speed (1 = real time).")
        var speed: Double = 1

        @Flag(help: "Replay as fast as the engine goes.")
        var fast = false

        @Option(help: "Channels to play, by label (comma-separated); default all, or the first four of more.")
        var channels: String?

        @Option(help: "Replay from this second.")
        var from: Double?

        @Option(help: "Replay up to this second.")
        var to: Double?

        @Option(help: "Seconds of baseline from the first replayed sample (0: none, no zones).")
        var baseline: Double = 60

        @Option(help: "Seconds between indicators.")
        var indicator: Double = 10

        @Option(help: "Samples per window.")
        var window: Int = 256

        @Option(help: "Samples between spectra (default: one second of samples).")
        var hop: Int?

        func validate() throws {
            guard speed > 0, speed.isFinite, baseline >= 0, indicator > 0, window >= 8, (hop ?? 1) >= 1 else {
                throw ValidationError("need speed > 0, baseline ≥ 0, indicator > 0, window ≥ 8, hop ≥ 1")
            }
        }

        func run() async throws {
            var recording = try reading.read(path: file)
            let labels =
                channels.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
                ?? Array(recording.channelLabels.prefix(4))
            recording = try recording.selecting(channels: labels)
            if from != nil || to != nil {
                recording = try recording.segment(from: from ?? 0, to: to ?? recording.duration)
            }
            let selected = recording.channelLabels
            var configuration = EEGEngine.Configuration(
                sampleRate: recording.sampleRate, channelLabels: selected, baselineDuration: max(baseline, 1),
                indicatorPeriod: indicator)
            configuration.windowSize = window
            configuration.hop = hop ?? max(1, Int(recording.sampleRate.rounded()))
            let replay = RecordingReplaySource(
                recording: recording, options: .init(speed: fast ? .asFastAsPossible : .realTime(multiplier: speed)))
            let session = try EEGSession(
                source: replay, configuration: configuration,
                options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
            print("axon replay: \(file) (\(recording.descriptor.metadata["format"] ?? "?"))")
            print(
                "  channels \(selected.joined(separator: ", ")); \(fmt(recording.sampleRate, 3)) Hz; "
                    + "\(fmt(recording.duration, 2)) s"
                    + (from != nil || to != nil ? " from \(fmt(from ?? 0, 1)) s" : "")
                    + "; window \(configuration.windowSize), hop \(configuration.hop) samples; baseline "
                    + (baseline > 0 ? "\(fmt(baseline, 0)) s" : "none")
                    + ", indicator every \(fmt(indicator, 0)) s; speed "
                    + (fast ? "as fast as possible" : "\(fmt(speed, 1))×"))
            for warning in recording.warnings { print("  warning: \(warning)") }
            let printer = EEGPrinter(configuration: configuration, timeOffset: from ?? 0)
            if baseline > 0 { session.startBaseline() }
            try session.start()
            let pending = PendingIndicators()
            let indicatorTask = Task {
                for await indicator in session.indicators { pending.append(indicator) }
            }
            print(printer.header())
            for await frame in session.spectra {
                print(printer.row(frame))
                for indicator in pending.take(upTo: frame.sampleIndex) { print(printer.indicator(indicator)) }
            }
            await indicatorTask.value
            for indicator in pending.take(upTo: .max) { print(printer.indicator(indicator)) }
            session.waitUntilFinished()
            let statistics = session.statistics()
            print(
                "done: \(statistics.delivered) samples through the engine, \(statistics.gapRecords) gap records, "
                    + "\(statistics.dropped) dropped")
        }
    }
}
