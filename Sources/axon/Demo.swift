import ArgumentParser
import AxonBrainiac
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

        static let defaultFile = "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"

        @Option(help: "Recording to replay (OpenBCI GUI text or muse-lsl CSV).")
        var file: String = defaultFile

        @Option(help: "Four channels of the recording to use as T3, O1, T4, O2 (comma-separated labels).")
        var channels: String = "EXG2,EXG3,EXG6,EXG7"

        @Option(help: "Replay from this second of the recording.")
        var from: Double = 0

        @Option(help: "Replay up to this second.")
        var to: Double = 86

        @Option(help: "Seconds of baseline, started with the first replayed sample.")
        var baseline: Double = 12

        @Option(help: "Seconds between indicators.")
        var indicator: Double = 10

        @Option(help: "Replay speed (1 = real time).")
        var speed: Double = 2

        @Flag(help: "Replay as fast as the engine goes.")
        var fast = false

        @Option(name: .customLong("test-sequence"), help: "Run the simulated headset's test sequence at this dominant frequency (Hz) instead of a recording.")
        var testSequence: Double?

        @Option(help: "Seconds to run the test sequence.")
        var seconds: Double = 30

        @Option(help: "Gaussian noise added to the test sequence, µV.")
        var noise: Double = 5

        func validate() throws {
            guard to > from, from >= 0, baseline > 0, indicator > 0, speed > 0, seconds > 0, noise >= 0 else {
                throw ValidationError("need 0 ≤ from < to, and positive baseline, indicator, speed and seconds")
            }
        }

        @Option(help: ArgumentHelp(
            "A device instead of a recording (runs --seconds): a Brainiac headset through BlueZ, ble:NAME or "
                + "ble:ADDRESS, a Muse or an OpenBCI Ganglion through BlueZ, muse:NAME|ADDRESS or "
                + "ganglion:NAME|ADDRESS, an OpenBCI Cyton on a serial port, cyton:PATH (--channels picks from "
                + "EXG0…EXG7), or an LSL stream, lsl:NAME|lsl:type=T|lsl:source_id=ID."))
        var device: String?

        @Option(help: "D-Bus address of the bus bluetoothd is on, for --device (default: the system bus).")
        var bus: String?

        @Flag(help: "Publish the replayed EEG, its spectra and zones as LSL outlets (docs/lsl.md).")
        var lslOut = false

        @Option(help: "A liblsl configuration file for --lsl-out and --device lsl:… (default: this machine only).")
        var lslConfig: String?

        @Flag(help: "Show the run in the browser instead (axon view on 127.0.0.1:8080; docs/live-view.md).")
        var view = false

        func run() async throws {
            if view {
                #if LiveView
                    return try await runView()
                #else
                    throw ValidationError("this axon was built without the LiveView trait, so without --view")
                #endif
            }
            if let device, let path = try CytonOptions.path(device) { return try await runCyton(path: path) }
            if let device, let selector = try MuseOptions.selector(device) {
                return try await runMuse(selector: selector)
            }
            if let device, let selector = try GanglionOptions.selector(device) {
                return try await runGanglion(selector: selector)
            }
            if let device, try LSLCommandSupport.selector(source: device) != nil { return try await runLSL(device) }
            if let device { return try await runHeadset(selector: try BluetoothOptions.selector(device)) }
            if let testSequence { try await runTestSequence(frequency: testSequence) } else { try await runRecording() }
        }

        private func runRecording() async throws {
            let labels = channels.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            guard labels.count == 4 else { throw ValidationError("--channels needs four labels (T3, O1, T4, O2)") }
            let recording: Recording
            do {
                recording = try RecordingReader.read(path: file).selecting(channels: labels).segment(from: from, to: to)
            } catch {
                throw ValidationError("\(error)\n(run from the project's folder, or pass --file PATH)")
            }
            let configuration = EEGEngine.Configuration(
                sampleRate: recording.sampleRate, channelLabels: labels, baselineDuration: baseline,
                indicatorPeriod: indicator)
            let replay = RecordingReplaySource(
                recording: recording, options: .init(speed: fast ? .asFastAsPossible : .realTime(multiplier: speed)))
            let lsl = try lslOut ? LSLRunOutput(configuration: lslConfig) : nil
            let status = try lsl?.statusOutlet(for: recording.descriptor)
            let session = try EEGSession(
                source: replay, configuration: configuration, sinks: lsl.map { [$0.rawSink(status: status)] } ?? [],
                options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
            let outlets = try lsl?.eegOutlets(eeg: recording.descriptor, configuration: configuration)
            print("axon demo: \(file)")
            print("  channels \(labels.joined(separator: ", ")) as T3, O1, T4, O2; \(fmt(recording.sampleRate, 0)) Hz; "
                + "seconds \(fmt(from, 0))–\(fmt(to, 0)) of the recording (eyes open until ≈28 s, closed ≈28–76 s)")
            print("  window 256 samples, a spectrum every 250; baseline \(fmt(baseline, 0)) s from the start, "
                + "an indicator every \(fmt(indicator, 0)) s; speed " + (fast ? "as fast as possible" : "\(fmt(speed, 1))×")
                + "  (change with --from --to --baseline --indicator --speed --fast --channels --file)")
            let printer = EEGPrinter(
                configuration: configuration, displayLabels: zip(["T3", "O1", "T4", "O2"], labels).map { "\($0)=\($1)" },
                timeOffset: from)
            if let outlets {
                print("  LSL outlets: \(recording.descriptor.name), \(outlets.spectra.descriptor.name), "
                    + "\(outlets.zones.descriptor.name), \(status.map { $0.outlet.descriptor.name } ?? "")")
            }
            session.startBaseline()
            try session.start()
            await printLive(
                spectra: session.spectra, indicators: session.indicators, printer: printer, outlets: outlets)
            session.waitUntilFinished()
            printSummary(session.statistics())
            do { try status?.publish(summary(session.statistics())) } catch { print("  ! status outlet: \(error)") }
            status?.outlet.finishSending()
        }

        private func runTestSequence(frequency: Double) async throws {
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
            let configuration = EEGEngine.Configuration(baselineDuration: baseline, indicatorPeriod: indicator)
            let headset = EEGHeadset(configuration: configuration)
            let transport = try await BluetoothOptions.brainiacTransport(selector: selector, bus: bus)
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
                if !statistics.failures.isEmpty { print("failures: \(statistics.failures.joined(separator: "; "))") }
            }
            let cpu = transport.central.bus.ownerThreadCPUSeconds
            print("  Bluetooth client: \(transport.central.bus.signalsReceived) D-Bus signals; its thread used "
                + "\(fmt(cpu, 3)) s of CPU in \(fmt(seconds, 0)) s (\(fmt(100 * cpu / seconds, 2)) % of one core)")
            transport.central.close()
        }

        func printLive(session: EEGSession, printer: EEGPrinter) async {
            await printLive(spectra: session.spectra, indicators: session.indicators, printer: printer)
        }

        /// Prints spectra as they arrive; indicators are queued by a second task and printed after the spectrum
        /// row of their time.
        private func printLive(
            spectra: AsyncStream<SpectrumFrame>, indicators: AsyncStream<ActivityIndicators>, printer: EEGPrinter,
            outlets: EEGOutlets? = nil
        ) async {
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
