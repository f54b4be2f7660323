import ArgumentParser
import AxonBrainiac
import AxonConnect
import AxonDSP
import AxonDevices
import AxonEEG
import AxonRecording
import Foundation

extension Axon {
    /// The engine over a whole recording (or a generated test sequence) as fast as possible, summarised.
    struct Analyze: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the engine over a recording or a test sequence as fast as possible and summarise: median, "
                + "min and max dominant frequency per channel and band, band powers (delta…gamma, --bands), and the "
                + "zone timeline.",
            discussion: """
                --bandpass, --highpass, --lowpass and --notch filter a recording forward and backward (zero-phase, \
                like MNE and SciPy's sosfiltfilt) before the engine, which then runs as without them. The table's \
                second line and the JSON's "filters" (a list, empty when none ran) say which filters ran. A \
                high-pass changes what the engine's blink rule sees, and railed samples are counted on the filtered \
                signal: check railing without filters. docs/filters.md has the details.
                """)

        @Argument(help: ArgumentHelp(
            "What to analyse: a recording (any format axon reads: see axon info), test-sequence:HZ, or a live "
                + "device or stream for --seconds: cyton:PATH (--channels picks from EXG0…), muse:NAME|ADDRESS or "
                + "ganglion:NAME|ADDRESS through BlueZ, lsl:NAME|lsl:type=T|lsl:source_id=ID.",
            valueName: "source"))
        var source: String?

        @OptionGroup var reading: RecordingReadOptions

        @OptionGroup(title: "Filters (a recording, zero-phase, before the engine)") var filters: FilterOptions

        @OptionGroup(title: "Band powers") var powerBands: BandOptions

        @Option(
            name: .customLong("test-sequence"),
            help: ArgumentHelp("Deprecated: give test-sequence:HZ as SOURCE.", visibility: .hidden))
        var testSequence: Double?

        @Option(help: ArgumentHelp(
            "Seconds of test sequence, or of a device's samples; a device not found within them (at most 30 s) is "
                + "an error."))
        var seconds: Double = 120

        @Option(help: ArgumentHelp("Deprecated: give the device as SOURCE.", visibility: .hidden))
        var device: String?

        @OptionGroup var sensor: SensorOption

        @Option(help: "A liblsl configuration file for --device lsl:… (default: this machine only).")
        var lslConfig: String?

        @Option(help: "D-Bus address of the bus bluetoothd is on, for --device (default: the system bus).")
        var bus: String?

        @Option(help: "Channels to analyse, by label (comma-separated); default all.")
        var channels: String?

        @Option(help: "Samples per window.")
        var window: Int = 256

        @Option(help: "Samples between spectra (default: one second of samples at the source's rate).")
        var hop: Int?

        @Option(help: "Seconds of baseline from the start of the analysed segment (0 = no baseline, no zones).")
        var baseline: Double = 60

        @Option(help: "Seconds between indicators.")
        var indicator: Double = 10

        @Option(help: "Analyse from this second.")
        var from: Double?

        @Option(help: "Analyse up to this second.")
        var to: Double?

        @Option(help: "The amplifier's rail in the channels' unit (a Cyton at gain 24: 187500); samples at it count as railed. Default: the recording's declared range, if any.")
        var rail: Double?

        @Option(name: .customLong("blink-scale"), help: "A blink swings more than this many times its eye channel's own typical slow swing, and more than 100 µV (docs/signal-quality.md); 0: 100 µV alone, the absolute rule.")
        var blinkScale: Double = 2.5

        @Flag(name: .customLong("keep-artifacts"), help: "Flag blink and muscle windows but keep them in the baseline and the indicators.")
        var keepArtifacts = false

        @Flag(help: "Clean the samples with artifact subspace reconstruction before the engine (docs/asr.md); the analysis then runs through replay → ring → ASR → engine, and the baseline starts once ASR's output has settled (1.02 s in at 250 Hz).")
        var asr = false

        @Option(name: .customLong("asr-calibration"), help: "Seconds FROM-TO of the recording ASR calibrates on (clean resting EEG). Default: the 60 s with the fewest blink and muscle windows.")
        var asrCalibration: String?

        @Option(help: "Stretches with the eyes open or closed, for the alpha reactivity (eyes-closed ÷ eyes-open alpha power): STATE=FROM-TO seconds, comma-separated, e.g. eyes-open=0-28,eyes-closed=28-76. Default: the recording's events that say so.")
        var segments: String?

        @Option(help: "A second recording made with the eyes open (same channels): the alpha reactivity is FILE's alpha ÷ this one's (or FILE's eyes-closed segments' ÷ this one's).")
        var eyesOpenRecording: String?

        @Flag(help: "Print one JSON object instead of tables.")
        var json = false

        /// The SOURCE given, under its new spelling or an old one (`announce`: print a line for an old one).
        func resolvedSource(announce: Bool) throws -> SourceSpecifier {
            let specifier = try SourceArgument.resolve(
                source, command: "analyze", announce: announce, sensor: sensor,
                deprecated: [
                    .init(option: "--test-sequence", value: SourceArgument.testSequence(testSequence)),
                    .init(option: "--device", value: device),
                ])
            guard let specifier else { throw ValidationError("give a SOURCE: a recording, test-sequence:HZ or a device") }
            if case .simulator = specifier {
                throw ValidationError("analyze takes a recording, test-sequence:HZ or a device; simulator runs in demo, record and view")
            }
            if case .brainiac = specifier {
                throw ValidationError("analyze does not run a Brainiac headset; axon demo or axon record does")
            }
            return specifier
        }

        /// The recording's path, when SOURCE is one.
        var file: String? {
            if case .file(let path)? = try? resolvedSource(announce: false) { return path }
            return nil
        }

        /// A device or stream SOURCE, which `LiveEEGDevice` opens.
        var liveDevice: SourceSpecifier? {
            guard let specifier = try? resolvedSource(announce: false), specifier.isDevice || LSLCommandSupport.isStream(specifier)
            else { return nil }
            return specifier
        }

        private func isCyton(_ specifier: SourceSpecifier) -> Bool {
            if case .cyton = specifier { return true }
            return false
        }

        func validate() throws {
            _ = try resolvedSource(announce: false)
            if let device = liveDevice {
                guard LiveEEGDevice.handles(device) else {
                    throw ValidationError("\(DeviceOpeningError.notALiveDevice(device))")
                }
                guard from == nil, to == nil, !asr else {
                    throw ValidationError("--from, --to and --asr analyse a FILE; a --device runs --seconds")
                }
                guard channels == nil || isCyton(device) else {
                    throw ValidationError(
                        "--channels with --device picks Cyton channels; a Muse, a Ganglion or an LSL stream sends all")
                }
            }
            guard window >= 8, hop.map({ $0 >= 1 }) ?? true, baseline >= 0, indicator > 0, seconds > 0 else {
                throw ValidationError("need window ≥ 8, hop ≥ 1, baseline ≥ 0, indicator > 0, seconds > 0")
            }
            guard blinkScale >= 0, blinkScale.isFinite else {
                throw ValidationError("--blink-scale takes a finite number ≥ 0 (0: the absolute 100 µV rule)")
            }
            if let segments { _ = try AlphaReactivity.Segment.parse(segments) }
            if segments != nil || eyesOpenRecording != nil {
                guard file != nil, !asr else {
                    throw ValidationError("--segments and --eyes-open-recording analyse a FILE (without --asr)")
                }
            }
            if filters.isActive, file == nil {
                throw ValidationError(
                    "--bandpass, --highpass, --lowpass and --notch filter a recording; a device or a test sequence "
                        + "runs unfiltered")
            }
            if asrCalibration != nil || asr {
                guard asr, file != nil else { throw ValidationError("--asr and --asr-calibration analyse a FILE") }
                _ = try calibrationSpan()
            }
        }

        func run() async throws {
            let specifier = try resolvedSource(announce: true)
            var configuration = EEGEngine.Configuration(
                windowSize: window, hop: hop ?? 250, indicatorPeriod: indicator)
            configuration.quality.excludeArtifacts = !keepArtifacts
            configuration.quality.railMagnitude = rail
            configuration.quality.blinkScale = blinkScale > 0 ? blinkScale : nil
            let report: EEGAnalysisReport
            let source: String
            var worstError: Double?
            var deviceSummary: String?
            var readWarnings: [String] = []
            var filterLines: [String] = []
            if let device = liveDevice {
                let summary: String
                (report, source, summary) = try await analyzeDevice(device, configuration: configuration)
                deviceSummary = summary
            } else if case .testSequence(let frequency) = specifier {
                (report, worstError) = try await EEGHeadset.analyzeTestSequence(
                    frequency: frequency, seconds: seconds, configuration: configuration,
                    baselineSeconds: baseline > 0 ? baseline : nil,
                    powerBands: try powerBands.powers(configuration: configuration).bands)
                source = "test sequence \(fmt(frequency, 2)) Hz, \(fmt(seconds, 0)) s (simulated headset → decoder → ring → engine)"
            } else {
                var recording = try reading.read(path: file!)
                readWarnings = recording.warnings
                if let channels {
                    recording = try recording.selecting(
                        channels: channels.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                }
                // The whole file, before any segment: the segment's edges then see no padding.
                recording = try filters.filtered(recording)
                if from != nil || to != nil {
                    recording = try recording.segment(from: from ?? 0, to: to ?? recording.duration)
                }
                filterLines = filters.descriptions(.zeroPhase, sampleRate: recording.sampleRate)
                configuration = configuration.fitted(to: recording.descriptor, hop: hop)
                _ = try powerBands.powers(configuration: configuration)
                let loaded = recording
                var calibrationNote = ""
                if asr {
                    let calibration: (from: Double, to: Double)
                    (report, calibration) = try await analyzeWithASR(loaded, configuration: configuration)
                    calibrationNote = ", ASR calibrated on \(fmt(calibration.from, 1))–\(fmt(calibration.to, 1)) s"
                        + (asrCalibration == nil ? " (the cleanest stretch)" : "")
                } else {
                    let (marked, markedBy) = try reactivitySegments(loaded)
                    let eyesOpen = try eyesOpenRecording.map { try eyesOpenWindows(path: $0, like: loaded, configuration: configuration) }
                    let analysed = try EEGOfflineAnalysis.run(
                        configuration: configuration, frameCount: loaded.frameCount,
                        baselineSeconds: baseline > 0 ? baseline : nil,
                        value: { loaded.value(frame: $0, channel: $1) }, time: { loaded.time(ofFrame: $0) },
                        gaps: loaded.gaps.map { ($0.beforeFrame, $0.gap.missingCount) }, segments: marked,
                        eyesOpen: eyesOpen,
                        reactivitySource: eyesOpenRecording.map {
                            "\(file!)" + (marked.contains { $0.state == .closed } ? " (eyes-closed segments)" : "") + " ÷ \($0)"
                        } ?? markedBy, powerBands: try powerBands.bands())
                    report = analysed
                }
                source = "\(file!): \(loaded.channelCount) channels, \(fmt(loaded.sampleRate, 0)) Hz, "
                    + "\(fmt(loaded.duration, 2)) s" + (from != nil || to != nil ? " (segment \(fmt(from ?? 0, 1))–\(fmt(to ?? loaded.duration + (from ?? 0), 1)) s)" : "")
                    + calibrationNote
            }
            // What the reader noticed (a truncated file, a measured rate far off, clipped samples): `info` and
            // `replay` print it, and so does `analyze` — on standard error with --json, so the JSON stays clean.
            let notes = (readWarnings.map { "warning: \($0)" })
            if json {
                for note in notes { printError(note) }
                print(try report.jsonText(filters: filterLines))
            } else {
                printTables(report, source: source, worstError: worstError, filters: filterLines)
            }
            if !json { for note in notes { print(note) } }
            if let deviceSummary { print(deviceSummary) }
        }

        /// The eyes-open and eyes-closed stretches of `recording`: `--segments`, else its events that name a state;
        /// with where they came from.
        private func reactivitySegments(_ recording: Recording) throws -> ([AlphaReactivity.Segment], String) {
            if let segments { return (try AlphaReactivity.Segment.parse(segments), "--segments \(segments)") }
            let events = recording.markers.compactMap { marker in
                marker.text.map { (time: Double(marker.frame) / recording.sampleRate, text: $0) }
            }
            let marked = AlphaReactivity.Segment.fromEvents(events, duration: recording.duration)
            return (marked, "the recording's events")
        }

        /// The clean windows of the eyes-open recording at `path`, read with the same options, channels and span as
        /// `recording` and analysed with the same configuration.
        private func eyesOpenWindows(path: String, like recording: Recording, configuration: EEGEngine.Configuration)
            throws -> AlphaFrequencyTracker
        {
            var open = try filters.filtered(reading.read(path: path).selecting(channels: recording.channelLabels))
            if from != nil || to != nil { open = try open.segment(from: from ?? 0, to: to ?? open.duration) }
            guard open.sampleRate == recording.sampleRate else {
                throw ValidationError(
                    "--eyes-open-recording is at \(fmt(open.sampleRate, 0)) Hz, FILE at \(fmt(recording.sampleRate, 0)) Hz")
            }
            return try EEGOfflineAnalysis.alphaWindows(
                configuration: configuration, frameCount: open.frameCount,
                value: { open.value(frame: $0, channel: $1) }, time: { open.time(ofFrame: $0) },
                gaps: open.gaps.map { ($0.beforeFrame, $0.gap.missingCount) })
        }

        /// `--asr-calibration FROM-TO` as seconds, or `nil` when not given.
        private func calibrationSpan() throws -> (from: Double, to: Double)? {
            guard let asrCalibration else { return nil }
            let parts = asrCalibration.split(separator: "-").compactMap { Double($0) }
            guard parts.count == 2, parts[0] >= 0, parts[1] > parts[0] else {
                throw ValidationError("--asr-calibration takes FROM-TO in seconds, e.g. 30-60")
            }
            return (parts[0], parts[1])
        }

        /// Replays the recording unpaced through ring → ASR → engine (the live path), ASR calibrated on
        /// `--asr-calibration`'s span of the recording or on its cleanest stretch
        /// (``EEGOfflineAnalysis/cleanestStretch(configuration:frameCount:value:time:gaps:)``).
        private func analyzeWithASR(_ recording: Recording, configuration: EEGEngine.Configuration) async throws
            -> (report: EEGAnalysisReport, calibration: (from: Double, to: Double))
        {
            var calibrating = configuration
            if baseline > 0 { calibrating.baselineDuration = baseline }
            let span = try calibrationSpan()
                ?? EEGOfflineAnalysis.cleanestStretch(
                    configuration: calibrating, frameCount: recording.frameCount,
                    value: { recording.value(frame: $0, channel: $1) }, time: { recording.time(ofFrame: $0) },
                    gaps: recording.gaps.map { ($0.beforeFrame, $0.gap.missingCount) })
            let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
            let report = try await EEGSessionAnalysis.runWithASR(
                source: replay, pipeline: replay.pipelineConfiguration(),
                calibrationFrames: try recording.segment(from: span.from, to: span.to).values,
                configuration: configuration, baselineSeconds: baseline > 0 ? baseline : nil,
                powerBands: try powerBands.bands(), sampleCount: recording.frameCount)
            return (report, span)
        }

        private func printTables(_ report: EEGAnalysisReport, source: String, worstError: Double?, filters: [String]) {
            print("axon analyze: \(source)")
            if !filters.isEmpty { print("  filtered before the engine: " + filters.joined(separator: "; ")) }
            print("  \(report.frames) spectra (window \(report.window), hop \(report.hop) samples)"
                + (report.framesWithFilledSamples > 0 ? ", \(report.framesWithFilledSamples) with filled-in samples" : ""))
            if let worstError, !worstError.isNaN, report.frames > 0 {
                print("  worst |dominant frequency − test frequency| in its band: \(String(format: "%.4f", worstError)) Hz")
            }
            guard report.frames > 0 else {
                print("  no spectra: the stream is shorter than one window (\(report.window) samples)")
                return
            }
            func cell(_ value: Double?, _ digits: Int, _ width: Int) -> String {
                (value.map { fmt($0, digits) } ?? "–").leftPadded(width)
            }
            let labelWidth = max(7, report.channels.map(\.label.count).max() ?? 0)  // whole labels, never cut
            print("  " + "channel".rightPadded(labelWidth) + "  band Hz   median    min    max   median power µV²   share")
            for channel in report.channels {
                for band in channel.bands {
                    let label = channel.label.rightPadded(labelWidth)
                    let range = "\(fmt(band.low, 0))–\(fmt(band.high, 0))".padding(toLength: 7, withPad: " ", startingAt: 0)
                    let frequencies = cell(band.median, 2, 8) + cell(band.min, 2, 7) + cell(band.max, 2, 7)
                    let share = cell(band.medianRelativePower.map { $0 * 100 }, 0, 7) + "%"
                    print("  " + label + "  " + range + frequencies + cell(band.medianPower, 2, 19) + share)
                }
            }
            printBandPowers(report)
            printQuality(report)
            printAlpha(report)
            if report.zones.isEmpty {
                print("  zones: none (" + (report.baselineSeconds == nil ? "no baseline" : "shorter than the baseline of \(fmt(report.baselineSeconds!, 0)) s") + ")")
            } else {
                print("  zone timeline (baseline \(fmt(report.baselineSeconds ?? 0, 0)) s from the start):")
                for zone in report.zones {
                    let channels = zone.channels.map { channel -> String in
                        guard let name = channel.zone, let percent = channel.percent else { return "\(channel.label) left out" }
                        return "\(channel.label) \(name) \(Int(percent * 100))%"
                    }.joined(separator: ", ")
                    let excluded = zone.excludedFrames > 0 ? "  (\(zone.frames) windows used, \(zone.excludedFrames) left out)" : ""
                    print("    \(fmt(zone.time, 1).leftPadded(7)) s  \(zone.zone) \(Int(zone.percent * 100))%   [\(channels)]" + excluded)
                }
            }
        }

        private func printAlpha(_ report: EEGAnalysisReport) {
            if let alpha = report.individualAlpha {
                let estimate = alpha.estimate
                let pooled = "PAF " + (estimate.peak.map { fmt($0, 2) + " Hz" } ?? "none")
                    + ", CoG " + (estimate.centreOfGravity.map { fmt($0, 2) + " Hz" } ?? "none")
                    + (estimate.window.map { " over \(fmt($0.lowerBound, 2))–\(fmt($0.upperBound, 2)) Hz" } ?? "")
                print("  individual alpha frequency (Corcoran et al. 2018; \(alpha.windowStarts.count) clean windows, "
                    + "\(fmt(alpha.resolution, 3)) Hz bins): \(pooled)")
                for (channel, value) in zip(report.channels, estimate.channels) {
                    let peak = value.peak.map { "PAF " + fmt($0, 2) + " Hz" } ?? "no PAF (\(value.reason ?? "–"))"
                    let gravity = value.centreOfGravity.map { ", CoG " + fmt($0, 2) + " Hz" } ?? ""
                    print("    " + channel.label + ": " + peak + gravity)
                }
            }
            if let reactivity = report.reactivity {
                print("  alpha reactivity, eyes closed ÷ eyes open, \(fmt(reactivity.band.lowerBound, 2))–"
                    + "\(fmt(reactivity.band.upperBound, 2)) Hz (\(reactivity.bandSource); \(reactivity.source)): median "
                    + (reactivity.medianRatio.map { fmt($0, 2) } ?? "–"))
                for channel in reactivity.channels {
                    let ratio = channel.ratio.map { fmt($0, 2) } ?? "–"
                    let open = channel.eyesOpenPower.map { fmt($0, 1) } ?? "–"
                    let closed = channel.eyesClosedPower.map { fmt($0, 1) } ?? "–"
                    print("    \(channel.label): \(ratio)  (\(closed) µV² over \(channel.eyesClosedWindows) windows ÷ "
                        + "\(open) µV² over \(channel.eyesOpenWindows))")
                }
            }
        }

        /// The band powers: per channel and band the absolute power and, in brackets, the relative power.
        private func printBandPowers(_ report: EEGAnalysisReport) {
            guard let powers = report.bandPowers else { return }
            let left = powers.windowsWithFilledSamples > 0
                ? "; \(powers.windowsWithFilledSamples) with filled-in samples left out" : ""
            let unit = powers.unit.replacingOccurrences(of: "^2", with: "²")
            print("  band powers, \(unit) (% of the bands' sum), of the mean spectrum of \(powers.windows) "
                + "windows (every window\(left)); a band LO–HI holds LO ≤ f < HI Hz:")
            let labelWidth = max(7, powers.channels.map(\.label.count).max() ?? 0)
            let headers = powers.bands.map {
                "\($0.name) \(PowerBands.hertz($0.low))–\(PowerBands.hertz($0.high))"
            }
            func cell(_ absolute: Double?, _ relative: Double?) -> String {
                (absolute.map { fmt($0, 2) } ?? "–") + " (" + (relative.map { fmt($0, 1) } ?? "–") + "%)"
            }
            let cells = powers.channels.map { channel in
                zip(channel.absolute, channel.relative).map { cell($0, $1) }
            }
            let widths = headers.indices.map { index in
                max(headers[index].count, cells.map { $0[index].count }.max() ?? 0) + 2
            }
            print("  " + "channel".rightPadded(labelWidth)
                + zip(headers, widths).map { $0.leftPadded($1) }.joined())
            for (channel, row) in zip(powers.channels, cells) {
                let cells = zip(row, widths).map { $0.leftPadded($1) }.joined()
                print("  " + channel.label.rightPadded(labelWidth) + cells)
            }
        }

        private func printQuality(_ report: EEGAnalysisReport) {
            let labelWidth = max(15, report.channels.map(\.label.count).max() ?? 0)
            print("  " + "signal quality".rightPadded(labelWidth) + "  railed   unusable   mains   muscle   slow swing (median)")
            for channel in report.channels {
                let quality = channel.quality
                let label = channel.label.rightPadded(labelWidth)
                let line = quality.medianLineShare.map { fmt($0 * 100, 0) + "%" } ?? "–"
                let muscle = quality.medianMuscleShare.map { fmt($0 * 100, 0) + "%" } ?? "–"
                let swing = quality.medianSlowSwing.map { fmt($0, 1) } ?? "–"
                print("  " + label + (fmt(quality.railedFraction * 100, 1) + "%").leftPadded(8)
                    + "\(quality.unusableFrames)".leftPadded(11) + line.leftPadded(8) + muscle.leftPadded(9)
                    + swing.leftPadded(13))
            }
            let artifacts = report.artifacts.map { "\(fmt($0.time, 0)) s \($0.kinds.joined(separator: "+"))" }
            print("  artifacts: " + (artifacts.isEmpty ? "none" : artifacts.joined(separator: ", "))
                + "; \(report.excludedFrames) of \(report.frames) windows left out of baseline and zones")
        }
    }
}
