import ArgumentParser
import AxonBrainiac
import AxonDevices
import AxonEEG
import AxonLSL
import AxonRecording
import AxonStreams
import Foundation

extension Axon {
    /// The main job on a built-in default: a real recording through replay → ring → engine, printed live.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay a real EEG recording (or the simulated headset) through the engine; print each second's "
                + "dominant frequencies and the activity zone every indicator period.")

        /// The sample recording, found from any working directory (``InstallLayout/shippedFile(_:)``).
        static let defaultFile = InstallLayout.shippedFile(
            "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")

        /// The built-in demo's channels and where they sit: the OpenBCI GUI's default Cyton montage puts EXG2/EXG3
        /// at C3/C4 and EXG6/EXG7 at O1/O2 (datasets/README.md). C3 and C4 stand in for the headset's T3 and T4.
        static let defaultChannels = "EXG2,EXG6,EXG3,EXG7"
        static let defaultPositions = ["C3", "O1", "C4", "O2"]

        /// The built-in demo's baseline: its eyes close at ≈28 s, so a one-minute baseline would take them in.
        static let builtInBaseline = 12.0

        @Argument(help: ArgumentHelp(
            "What to run (default: the OpenBCI GUI's sample recording, eyes closed ≈28–76 s): "
                + SourceSpecifier.forms + ". A device or the simulator runs --seconds.",
            valueName: "source"))
        var source: String?

        @Option(help: ArgumentHelp("Deprecated: give the recording as SOURCE.", visibility: .hidden))
        var file: String?

        @Option(help: ArgumentHelp(
            "Four channels of a recording, in the headset's T3, O1, T4, O2 places (comma-separated labels; default "
                + "for the sample recording: \(defaultChannels), at C3, O1, C4, O2); for cyton: the EXG channels."))
        var channels: String?

        @Option(help: "Replay from this second of the recording.")
        var from: Double = 0

        @Option(help: "Replay up to this second (default: 86 s of the sample recording, or a recording's end).")
        var to: Double?

        @Option(help: ArgumentHelp(
            "Seconds of baseline, started with the first sample (default: 60, the headset's one minute; 12 for the "
                + "sample recording, whose eyes close at ≈28 s)."))
        var baseline: Double?

        @Option(help: "Seconds between indicators.")
        var indicator: Double = 10

        @Option(help: "Replay speed (1 = real time).")
        var speed: Double = 2

        @Flag(help: "Replay as fast as the engine goes.")
        var fast = false

        @Option(
            name: .customLong("test-sequence"),
            help: ArgumentHelp("Deprecated: give test-sequence:HZ as SOURCE.", visibility: .hidden))
        var testSequence: Double?

        @Option(
            name: .customLong("seconds"),
            help: ArgumentHelp(
                "Seconds to run: of a recording from --from (default: to --to, or its end; 86 s for the built-in "
                    + "demo), of a device, the simulator or the test sequence (default: 30); a device not found by "
                    + "then (at most 30 s) is an error.",
                valueName: "seconds"))
        var secondsOption: Double?

        /// `--seconds` for a device, the simulator or the test sequence: 30 unless given.
        var seconds: Double { secondsOption ?? 30 }

        @Option(help: "Gaussian noise added to the test sequence, µV.")
        var noise: Double = 5

        func validate() throws {
            guard to.map({ $0 > from }) ?? true, from >= 0, baseline.map({ $0 > 0 }) ?? true, indicator > 0,
                speed > 0, seconds > 0, noise >= 0
            else {
                throw ValidationError("need 0 ≤ from < to, and positive baseline, indicator, speed and seconds")
            }
            if fast {
                switch try resolvedSource() {
                case nil, .file?: break
                default:
                    // A live source has its own clock; saying nothing would leave --fast silently ignored.
                    throw ValidationError(
                        "--fast replays a recording as fast as the engine goes; a device, the simulator or a test "
                            + "sequence runs at its own real-time rate (shorten it with --seconds)")
                }
            }
            if filters.isActive {
                switch try resolvedSource() {
                case nil, .file?, .cyton?: break
                case .testSequence?, .simulator?, .lsl?, .muse?, .ganglion?, .polar?, .brainiac?, .sensor?:
                    // --view shows any source through axon view, which filters all of them.
                    guard view else {
                        throw ValidationError(
                            "--bandpass, --highpass, --lowpass and --notch filter a recording or a cyton: SOURCE "
                                + "(or any SOURCE with --view)")
                    }
                }
            }
        }

        @Option(help: ArgumentHelp("Deprecated: give the device as SOURCE.", visibility: .hidden))
        var device: String?

        @OptionGroup var sensor: SensorOption

        @Option(help: "D-Bus address of the bus bluetoothd is on, for a Bluetooth SOURCE (default: the system bus).")
        var bus: String?

        @Flag(help: "Publish the replayed EEG, its spectra and zones as LSL outlets (docs/lsl.md).")
        var lslOut = false

        @Option(help: "A liblsl configuration file for --lsl-out and lsl: sources (default: this machine only).")
        var lslConfig: String?

        @Flag(help: "Show the run in the browser instead (axon view on 127.0.0.1:8080; docs/live-view.md).")
        var view = false

        @OptionGroup(title: "Filters (causal, before the engine; a recording or a Cyton)") var filters: FilterOptions

        @OptionGroup(title: "Band powers (--lsl-out's band powers outlet and --view's band powers panel)")
        var powerBands: BandOptions

        /// The SOURCE given, under its new spelling or an old one; `nil` for the built-in demo.
        func resolvedSource() throws -> SourceSpecifier? {
            try SourceArgument.resolve(source, command: "demo", sensor: sensor, deprecated: [
                .init(option: "--file", value: file),
                .init(option: "--test-sequence", value: SourceArgument.testSequence(testSequence)),
                .init(option: "--device", value: device),
            ])
        }

        /// `--baseline`, or its default for this SOURCE.
        func baselineSeconds(builtIn: Bool) -> Double { baseline ?? (builtIn ? Self.builtInBaseline : 60) }

        /// The seconds a device may take to be found: `--seconds`, at most 30.
        var searchSeconds: Double { min(seconds, 30) }

        func run() async throws {
            let specifier = try resolvedSource()
            if view {
                #if LiveView
                    return try await runView(specifier)
                #else
                    throw ValidationError("this axon was built without the LiveView trait, so without --view")
                #endif
            }
            switch specifier {
            case nil: try await runRecording(path: Self.defaultFile, builtIn: true)
            case .file(let path): try await runRecording(path: path, builtIn: false)
            case .testSequence(let frequency): try await runTestSequence(frequency: frequency)
            case .simulator: try await runSimulator()
            case .cyton(let port): try await runCyton(path: port)
            case .muse, .ganglion: try await runLiveDevice(specifier!)
            case .polar:
                throw ValidationError(
                    "polar: is a Polar H10 chest strap (ECG), and the demo shows EEG zones; record it with "
                        + "axon record polar:NAME --out ecg.edf, or watch it with axon view polar:NAME")
            case .brainiac(let selector): try await runHeadset(selector: selector)
            case .lsl, .sensor: try await runLiveDevice(specifier!)
            }
        }

        private func runRecording(path: String, builtIn: Bool) async throws {
            let baseline = baselineSeconds(builtIn: builtIn)
            let full: Recording
            do { full = try RecordingReader.read(path: path) } catch {
                throw CommandFailure(builtIn ? "\(error) (run from the project's folder, or give a SOURCE)" : "\(error)")
            }
            let labels = (channels ?? (builtIn ? Self.defaultChannels : nil))
                .map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
                ?? Array(full.channelLabels.prefix(4))
            // --seconds of the recording from --from, within --to (or the built-in stretch, or the file's end).
            let to = min(to ?? (builtIn ? 86 : full.duration), secondsOption.map { from + $0 } ?? .infinity)
            let recording = try full.selecting(channels: labels).segment(from: from, to: min(to, full.duration))
            let configuration = EEGEngine.Configuration(
                sampleRate: recording.sampleRate, channelLabels: labels, hop: Int(recording.sampleRate.rounded()),
                baselineDuration: baseline, indicatorPeriod: indicator)
            let replay = RecordingReplaySource(
                recording: recording, options: .init(speed: fast ? .asFastAsPossible : .realTime(multiplier: speed)))
            let lsl = try lslOut ? LSLRunOutput(configuration: lslConfig) : nil
            let status = try lsl?.statusOutlet(for: recording.descriptor)
            let stage = try SOSFilterStage(filters, sampleRate: recording.sampleRate)
            let session = try EEGSession(
                source: replay, configuration: configuration, stages: stage.map { [$0] } ?? [],
                sinks: lsl.map { [$0.rawSink(status: status)] } ?? [],
                options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
            let powers = try powerBands.powers(configuration: configuration)
            let outlets = try lsl?.eegOutlets(
                eeg: recording.descriptor, configuration: configuration, bandPowers: powers)
            let displayLabels = builtIn && channels == nil
                ? zip(Self.defaultPositions, labels).map { "\($0)=\($1)" } : labels
            print("axon demo: \(path)")
            print("  channels \(displayLabels.joined(separator: ", ")); \(fmt(recording.sampleRate, 0)) Hz; "
                + "seconds \(fmt(from, 0))–\(fmt(min(to, full.duration), 0)) of the recording"
                + (builtIn ? " (eyes open until ≈28 s, closed ≈28–76 s)" : ""))
            print("  window 256 samples, a spectrum every \(configuration.hop); baseline \(fmt(baseline, 0)) s from "
                + "the start, an indicator every \(fmt(indicator, 0)) s; speed "
                + (fast ? "as fast as possible" : "\(fmt(speed, 1))×")
                + "  (change with --from --to --baseline --indicator --speed --fast --channels, or give a SOURCE)")
            if let filtered = filters.summary(.causal, sampleRate: recording.sampleRate) {
                print("  filtered before the engine: \(filtered)")
            }
            let printer = EEGPrinter(configuration: configuration, displayLabels: displayLabels, timeOffset: from)
            if let outlets {
                print("  LSL outlets: \(recording.descriptor.name), \(outlets.spectra.descriptor.name), "
                    + "\(outlets.zones.descriptor.name), \(outlets.bandPowers.descriptor.name) (\(powers.bands)), "
                    + "\(status.map { $0.outlet.descriptor.name } ?? "")")
            }
            session.startBaseline()
            try session.start()
            await printLive(
                spectra: session.spectra, indicators: session.indicators, printer: printer, outlets: outlets,
                alpha: session.individualAlpha)
            session.waitUntilFinished()
            printSummary(session.statistics())
            do { try status?.publish(summary(session.statistics())) } catch { print("  ! status outlet: \(error)") }
            status?.outlet.finishSending()
        }

        private func runTestSequence(frequency: Double) async throws {
            let baseline = baselineSeconds(builtIn: false)
            let configuration = EEGEngine.Configuration(baselineDuration: baseline, indicatorPeriod: indicator)
            let headset = EEGHeadset(configuration: configuration)
            print("axon demo: simulated Brainiac headset, test sequence \(fmt(frequency, 2)) Hz sine of 50 µV on every "
                + "channel + \(fmt(noise, 1)) µV noise, \(fmt(seconds, 0)) s in real time")
            print("  baseline \(fmt(baseline, 0)) s, an indicator every \(fmt(indicator, 0)) s  "
                + "(change with --seconds --noise --baseline --indicator)")
            try headset.startTestSequence(dominantFrequency: frequency, noise: noise, duration: seconds)
            headset.startBaseline()
            let printer = EEGPrinter(configuration: configuration)
            let statusTask = Task {
                for await event in headset.status {
                    if case .rejected(let error) = event { print("  ! rejected notification: \(error)") }
                }
            }
            await printLive(spectra: headset.spectra, indicators: headset.indicators, printer: printer)
            headset.waitUntilFinished()
            statusTask.cancel()
            if let statistics = headset.statistics { printSummary(statistics) }
            print("  battery \(headset.batteryLevel.map { "\($0)%" } ?? "unknown")")
        }

        /// A real headset: discover, connect and stream through BlueZ, with the SDK's status messages as they come.
        private func runHeadset(selector: String) async throws {
            let baseline = baselineSeconds(builtIn: false)
            let configuration = EEGEngine.Configuration(baselineDuration: baseline, indicatorPeriod: indicator)
            let headset = EEGHeadset(configuration: configuration)
            let transport = try await BluetoothOptions.brainiacTransport(
                selector: selector, bus: bus, searchSeconds: searchSeconds)
            print("axon demo: Brainiac headset \(selector) through BlueZ on \(transport.central.bus.address), "
                + "\(fmt(seconds, 0)) s; baseline \(fmt(baseline, 0)) s, an indicator every \(fmt(indicator, 0)) s")
            try headset.start(transport: transport)
            headset.startBaseline()
            let statusTask = Task {
                for await event in headset.status {
                    switch event {
                    case .status(let status): print("  status: \(status.vendorName) — \(status.message)")
                    case .battery(let level): print("  battery: \(level)%")
                    case .rejected(let error): print("  ! rejected notification: \(error)")
                    }
                }
            }
            let stopTask = Task {
                try? await Task.sleep(for: .seconds(seconds))
                headset.stop()
            }
            await printLive(spectra: headset.spectra, indicators: headset.indicators, printer: EEGPrinter(configuration: configuration))
            stopTask.cancel()
            headset.stop()
            statusTask.cancel()
            if let statistics = headset.statistics {
                printSummary(statistics)
                if !statistics.failures.isEmpty { print("failures: \(statistics.failures.map(\.description).joined(separator: "; "))") }
            }
            let cpu = transport.central.bus.ownerThreadCPUSeconds
            print("  Bluetooth client: \(transport.central.bus.signalsReceived) D-Bus signals; its thread used "
                + "\(fmt(cpu, 3)) s of CPU in \(fmt(seconds, 0)) s (\(fmt(100 * cpu / seconds, 2)) % of one core)")
            transport.central.close()
        }

        func printLive(session: EEGSession, printer: EEGPrinter) async {
            await printLive(
                spectra: session.spectra, indicators: session.indicators, printer: printer, alpha: session.individualAlpha)
        }

        /// Prints spectra as they arrive; indicators are queued by a second task and printed after the spectrum
        /// row of their time.
        private func printLive(
            spectra: AsyncStream<SpectrumFrame>, indicators: AsyncStream<ActivityIndicators>, printer: EEGPrinter,
            outlets: EEGOutlets? = nil, alpha: AsyncStream<IndividualAlphaUpdate>? = nil
        ) async {
            let alphaTask = alpha.map { updates in
                Task {
                    for await update in updates {
                        do { try outlets?.publish(update) } catch { print("  ! alpha outlet: \(error)") }
                        print(printer.alpha(update))
                    }
                }
            }
            let pending = PendingIndicators()
            let indicatorTask = Task {
                for await indicator in indicators {
                    pending.append(indicator)
                    do { try outlets?.publish(indicator) } catch { print("  ! zones outlet: \(error)") }
                }
            }
            print(printer.header())
            for await frame in spectra {
                do { try outlets?.publish(frame) } catch { print("  ! spectra outlet: \(error)") }
                print(printer.row(frame))
                for indicator in pending.take(upTo: frame.sampleIndex) { print(printer.indicator(indicator)) }
            }
            await indicatorTask.value
            await alphaTask?.value
            for indicator in pending.take(upTo: .max) { print(printer.indicator(indicator)) }
        }

        func printSummary(_ statistics: PipelineStatistics) { print(summary(statistics)) }

        func summary(_ statistics: PipelineStatistics) -> String {
            "done: \(statistics.delivered) samples through the engine, \(statistics.gapRecords) gap records, "
                + "\(statistics.dropped) dropped; engine stage p99 "
                + "\(fmt((statistics.stages.first { $0.name == "eeg" }?.p99 ?? 0) * 1e6, 1)) µs per batch"
        }
    }
}

/// Indicators waiting to be printed after the spectrum row of their time.
final class PendingIndicators: Sendable {
    private let queue = ThreadLocked<[ActivityIndicators]>([])

    func append(_ indicator: ActivityIndicators) { queue.withLock { $0.append(indicator) } }

    func take(upTo sampleIndex: Int) -> [ActivityIndicators] {
        queue.withLock { queue in
            let ready = queue.filter { $0.sampleIndex <= sampleIndex }
            queue.removeAll { $0.sampleIndex <= sampleIndex }
            return ready
        }
    }
}
