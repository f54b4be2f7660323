// Built with the LiveView trait (on by default; see Package.swift).
#if LiveView
import ArgumentParser
import AxonBrainiac
import AxonConnect
import AxonDevices
import AxonEEG
import AxonRecording
import AxonStreams
import AxonView
import Dispatch
import Foundation
import Synchronization

extension Axon {
    /// `axon view`: any EEG source through the engine, shown in the browser (docs/live-view.md).
    struct View: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a source's raw EEG, spectra, zones and status in the browser, served by Axon itself.",
            discussion: """
                SOURCE is a recording's path (OpenBCI GUI text, muse-lsl CSV, EDF+/BDF+), `simulator`, \
                `test-sequence:HZ` (the simulated Brainiac headset) or an LSL stream (`lsl:NAME`, `lsl:type=EEG`), \
                or give --device. Prints the URL to open, with a random token (or --token's) as ?token=…; the \
                page then keeps it in an HttpOnly cookie and takes it out of the address bar (no token or cookie: \
                401). Listens on 127.0.0.1 unless --listen. Requests whose Host is not the listen address, \
                localhost, 127.0.0.1, [::1] or an --allow-host name get 403, and so does a WebSocket from another \
                page's Origin. --no-token (loopback only) lets any program on this machine watch. \
                When the source ends the page keeps its last state and the \
                server keeps serving until Ctrl-C (or --linger seconds).
                """)

        @Argument(help: ArgumentHelp("What to show: \(SourceSpecifier.forms).", valueName: "source"))
        var source: String?

        @Option(help: ArgumentHelp("Deprecated: give the device as SOURCE.", visibility: .hidden))
        var device: String?

        @OptionGroup var sensor: SensorOption

        @Option(help: "D-Bus address of the bus bluetoothd is on, for a Bluetooth SOURCE (default: the system bus).")
        var bus: String?

        @Option(help: "A liblsl configuration file for an lsl: SOURCE (default: this machine only).")
        var lslConfig: String?

        @Option(help: "TCP port (0: any free port; the URL printed has it).")
        var port: Int = 8080

        @Option(help: "Address to listen on (127.0.0.1, ::1, 0.0.0.0, a LAN address).")
        var listen: String = "127.0.0.1"

        @Option(help: ArgumentHelp(
            "The access token viewers pass as ?token=… (default: a random one, printed in the URL). Other users of "
                + "this machine see a --token in ps while the view runs."))
        var token: String?

        @Flag(help: "No token (loopback --listen only): any program or user of this machine can watch.")
        var noToken = false

        @Option(help: ArgumentHelp(
            "Another name this machine is reached by (a proxy's, /etc/hosts'), accepted in the Host header; "
                + "repeatable.", valueName: "name"))
        var allowHost: [String] = []

        @Option(help: "Replay or simulator speed (1 = real time).")
        var speed: Double = 1

        @Flag(help: "Replay (or run the simulators) as fast as the engine goes.")
        var fast = false

        @Option(help: "Channels of a recording to use, comma-separated labels (default: all).")
        var channels: String?

        @Option(help: "Replay a recording from this second.")
        var from: Double = 0

        @Option(help: "Replay a recording up to this second (default: its end).")
        var to: Double?

        @Option(help: ArgumentHelp(
            "Seconds to run: of a recording from --from (default: to --to or its end), of the simulator or the "
                + "test sequence (default: until Ctrl-C)."))
        var seconds: Double?

        @Option(help: "Gaussian noise added to the test sequence, µV.")
        var noise: Double = 5

        @Option(help: "Test sequence: notifications to lose on the way (comma-separated indices from 0).")
        var losePackets: String?

        @Option(help: "Seconds of baseline, started with the first sample.")
        var baseline: Double = 60

        @Option(help: "Seconds between indicators.")
        var indicator: Double = 10

        @Option(help: "After the source ends, keep serving this many seconds, then exit (default: until Ctrl-C).")
        var linger: Double?

        @OptionGroup(title: "Filters (causal, before the engine: the traces and the spectra are filtered)")
        var filters: FilterOptions

        @Flag(inversion: .prefixedNo, help: ArgumentHelp(
            "Offer the traces filtered for display, as the OpenBCI GUI does: 1–50 Hz band-pass and a notch at the "
                + "mains frequency measured from the spectra, with a switch on the page; the engine and its spectra "
                + "stay unfiltered (off when --bandpass, --highpass, --lowpass or --notch filter the run itself)."))
        var displayFilter = true

        @OptionGroup(title: "Band powers (the page's band powers panel)") var powerBands: BandOptions

        func validate() throws {
            guard speed.isFinite, speed > 0, baseline > 0, indicator > 0, noise >= 0, from >= 0,
                seconds.map({ $0 > 0 }) ?? true, linger.map({ $0 >= 0 }) ?? true, to.map({ $0 > from }) ?? true
            else { throw ValidationError("need speed, baseline, indicator, seconds > 0, noise ≥ 0 and 0 ≤ from < to") }
            guard try resolvedSource(announce: false) != nil else {
                throw ValidationError("give a SOURCE: \(SourceSpecifier.forms)")
            }
            guard !(noToken && token != nil) else { throw ValidationError("give --token or --no-token, not both") }
        }

        func run() async throws {
            let events = ViewEventRelay()
            let made = try makeSource(events: events)
            let descriptor = made.source.descriptor
            let configuration = EEGEngine.Configuration(
                sampleRate: descriptor.nominalRate, channelLabels: descriptor.channels.map(\.label),
                baselineDuration: baseline, indicatorPeriod: indicator)
            let powers = try powerBands.powers(configuration: configuration)
            let hub = LiveViewHub(
                descriptor: descriptor, configuration: configuration,
                options: .init(
                    timeOffset: made.timeOffset, sourceLabel: made.label,
                    displayFilter: displayFilter && !filters.isActive ? DisplayFilter() : nil))
            let server: LiveViewServer
            do {
                let access: LiveViewServer.Configuration.Access =
                    noToken ? .noToken : .token(token ?? LiveViewServer.randomToken())
                server = try LiveViewServer(hub: hub, configuration: .init(
                    address: listen, port: port, access: access, allowedHosts: allowHost,
                    pageDirectory: InstallLayout.pageDirectory))
            } catch {
                print("axon view: \(error)")
                throw ExitCode.failure
            }
            let stage = try SOSFilterStage(filters, sampleRate: descriptor.nominalRate)
            let session = try EEGSession(
                source: made.source, configuration: configuration, stages: stage.map { [$0] } ?? [], sinks: [hub.sink],
                options: .init(timeBase: made.timeBase, publishSamples: false, pipeline: made.pipeline))
            hub.attachStatistics { session.statistics() }
            events.attach(hub)
            try hub.start()

            // Before the URL is printed: a SIGTERM sent as soon as someone has read it must find the handler.
            let stop = StopRequest()
            let listening = ListeningSignal()
            let serverTask = Task { try await server.run { url in listening.listening(url) } }
            let watcher = Task {
                do { try await serverTask.value } catch { listening.failed(error) }
            }
            guard let url = await listening.wait() else {
                throw CommandFailure(listening.failure(port: port, address: listen))
            }
            print("axon view: \(made.label) — open \(url)")
            if noToken {
                print("  warning: --no-token: any program or user of this machine can watch this EEG (other web sites "
                    + "still cannot: Host and Origin are checked)")
            } else if !server.configuration.isLoopback {
                print("  note: the token travels over plain HTTP: use a network you trust, or a TLS proxy in front")
            }
            print("  \(descriptor.channelCount) channel\(descriptor.channelCount == 1 ? "" : "s") at \(fmt(descriptor.nominalRate, 0)) Hz; baseline "
                + "\(fmt(baseline, 0)) s, an indicator every \(fmt(indicator, 0)) s; Ctrl-C stops")
            if let filtered = filters.summary(.causal, sampleRate: descriptor.nominalRate) {
                print("  filtered before the engine and the page: \(filtered)")
            } else if let display = hub.displayFilter {
                print("  traces filtered for display only (a switch on the page): "
                    + "\(display.passBandDescription(sampleRate: descriptor.nominalRate)), notch at the measured mains "
                    + "frequency")
            }
            flushStandardOutput()

            session.startBaseline()
            try session.start()
            let printer = EEGPrinter(configuration: configuration, timeOffset: made.timeOffset)
            let spectra = Task {
                var bandPowers = powers
                for await frame in session.spectra {
                    hub.publish(frame)
                    bandPowers.compute(from: frame)
                    hub.publish(bandPowers)
                }
            }
            let alpha = Task {
                for await update in session.individualAlpha { hub.publish(update) }
            }
            let indicators = Task {
                for await indicator in session.indicators {
                    hub.publish(indicator)
                    print(printer.indicator(indicator))
                    flushStandardOutput()
                }
            }
            let stopper = Task.detached {
                if await stop.wait() { session.stop() }
            }
            await spectra.value
            await alpha.value
            await indicators.value
            session.waitUntilFinished()
            let statistics = session.statistics()
            let summary = "\(statistics.delivered) samples through the engine, \(statistics.gapRecords) gap records "
                + "(\(statistics.missingFrames) samples missing), \(statistics.dropped) dropped"
            hub.finish(summary: summary)
            print("done: \(summary); the page keeps the last state"
                + (linger.map { " for \(fmt($0, 0)) s" } ?? " until Ctrl-C"))
            if !statistics.failures.isEmpty { print("failures: \(statistics.failures.map(\.description).joined(separator: "; "))") }
            flushStandardOutput()
            if let linger { stop.request(after: linger) }
            _ = await stop.wait()
            stopper.cancel()
            hub.stop()
            serverTask.cancel()
            watcher.cancel()
            print("axon view: stopped (\(hub.connectionCount) viewer connections served)")
            flushStandardOutput()
        }

        struct MadeSource {
            var source: any SampleSource
            var pipeline: StreamPipeline.Configuration
            var timeBase: EEGProcessor.TimeBase
            var label: String
            var timeOffset: Double = 0
        }

        /// A Cyton, Muse or Ganglion (`--device`) or an LSL stream (`lsl:…`), opened as `axon record` and
        /// `axon analyze` open them.
        private func live(_ specifier: SourceSpecifier) throws -> MadeSource {
            let picked = channels?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let (bus, lslConfig) = (bus, lslConfig)
            let device = try runBlocking {
                try await LiveEEGDevice.open(
                    specifier, bus: bus, channels: picked, lslConfig: lslConfig, searchSeconds: min(seconds ?? 30, 30))
            }
            return MadeSource(
                source: device.source, pipeline: .init(timeline: device.timeline), timeBase: .host, label: device.title)
        }

        /// The SOURCE given, under its new spelling or the old `--device` (`announce`: print a line for that).
        func resolvedSource(announce: Bool) throws -> SourceSpecifier? {
            try SourceArgument.resolve(
                source, command: "view", announce: announce, sensor: sensor, deprecated: [.init(option: "--device", value: device)])
        }

        private func makeSource(events: ViewEventRelay) throws -> MadeSource {
            let specifier = try resolvedSource(announce: true)!
            let source: String
            switch specifier {
            case .brainiac(let selector):
                let bus = bus
                let transport = try runBlocking {
                    try await BluetoothOptions.brainiacTransport(
                        selector: selector, bus: bus, searchSeconds: min(seconds ?? 30, 30))
                }
                let headset = BrainiacTransportSource(transport: transport) { events.forward($0) }
                return MadeSource(
                    source: headset, pipeline: .init(timeline: BrainiacHeadset.timelineConfiguration),
                    timeBase: .host, label: "Brainiac headset \(selector)")
            case .simulator:
                let simulator = SimulatedSource(configuration: .init(
                    duration: seconds, realTime: !fast, samplesPerPacket: 5, speed: speed))
                return MadeSource(
                    source: simulator, pipeline: .init(overflow: fast ? .rejectNewest : .dropOldest), timeBase: .host,
                    label: "simulated 4-channel source")
            case .testSequence(let frequency):
                guard speed == 1 else { throw ValidationError("the test sequence runs in real time or with --fast") }
                let lost = try (losePackets ?? "").split(separator: ",").map { text -> Int in
                    guard let index = Int(text.trimmingCharacters(in: .whitespaces)), index >= 0 else {
                        throw ValidationError("--lose-packets takes notification indices, e.g. 300,301,302")
                    }
                    return index
                }
                let headset = SimulatedBrainiacHeadset(configuration: .init(
                    dominantFrequency: frequency, noise: noise, duration: seconds, realTime: !fast,
                    faults: Dictionary(uniqueKeysWithValues: lost.map { ($0, BrainiacFault.flippedBit) }))
                ) { events.forward($0) }
                return MadeSource(
                    source: headset, pipeline: .init(timeline: BrainiacHeadset.timelineConfiguration),
                    timeBase: .device,
                    label: "simulated Brainiac headset, test sequence \(fmt(frequency, 2)) Hz"
                        + (lost.isEmpty ? "" : ", \(lost.count) notifications lost"))
            case .file(let path): source = path
            case .cyton, .muse, .ganglion, .polar, .lsl, .sensor: return try live(specifier)
            }
            var recording: Recording
            do {
                recording = try RecordingReader.read(path: source)
                if let channels {
                    recording = try recording.selecting(
                        channels: channels.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                }
                // --seconds of the recording from --from, within --to or its end.
                let end = min(to ?? recording.duration, seconds.map { from + $0 } ?? .infinity)
                recording = try recording.segment(from: from, to: end)
            } catch {
                throw CommandFailure("\(error)")
            }
            let replay = RecordingReplaySource(
                recording: recording, options: .init(speed: fast ? .asFastAsPossible : .realTime(multiplier: speed)))
            return MadeSource(
                source: replay, pipeline: replay.pipelineConfiguration(), timeBase: .device,
                label: "\(URL(fileURLWithPath: source).lastPathComponent), " + (fast ? "as fast as possible" : "\(fmt(speed, 1))×"),
                timeOffset: from)
        }
    }
}

/// Device events (status messages, battery, rejected notifications) on their way to the hub, which exists only
/// once the source does.
final class ViewEventRelay: Sendable {
    private let hub = ThreadLocked<LiveViewHub?>(nil)

    func attach(_ hub: LiveViewHub) { self.hub.withLock { $0 = hub } }

    func forward(_ event: BrainiacHeadsetEvent) {
        guard let hub = hub.withLock({ $0 }) else { return }
        switch event {
        case .status(let status): hub.publishStatus(code: status.code, name: status.vendorName, message: status.message)
        case .battery(let level): hub.publishBattery(level)
        case .rejected(let error): hub.publishStatus(code: nil, name: "rejected notification", message: "\(error)")
        }
    }

    func note(_ text: String) {
        hub.withLock { $0 }?.publishStatus(code: nil, name: "device", message: text)
    }
}

/// The server's first word: its URL once listening, or the error that stopped it.
final class ListeningSignal: Sendable {
    private let state = ThreadLocked<(url: String?, error: String?, waiter: CheckedContinuation<String?, Never>?)>((nil, nil, nil))

    func listening(_ url: String) { settle(url: url, error: nil) }

    func failed(_ error: any Error) { settle(url: nil, error: "\(error)") }

    /// Why the server did not start, for people: a taken port by its number, with what to do about it; anything
    /// else as the server said it.
    func failure(port: Int, address: String) -> String {
        let error = state.withLock { $0.error } ?? "it stopped before listening"
        // NIO's bind error carries the errno: EADDRINUSE is 98 on Linux.
        if error.contains("errno: 98") || error.contains("Address already in use") {
            return "port \(port) on \(address) is taken (another axon view?); choose another with --port N, or --port 0 "
                + "for any free port"
        }
        return "the server did not start: \(error)"
    }

    private func settle(url: String?, error: String?) {
        let (waiter, wasListening) = state.withLock { state -> (CheckedContinuation<String?, Never>?, Bool) in
            guard state.url == nil, state.error == nil else { return (nil, state.url != nil) }
            state.url = url
            state.error = error
            defer { state.waiter = nil }
            return (state.waiter, false)
        }
        // A failure before listening is the command's error (``failure(port:address:)``); one after, a line.
        if let error, wasListening { print("axon view: the server stopped: \(error)") }
        waiter?.resume(returning: url)
    }

    func wait() async -> String? {
        await withCheckedContinuation { continuation in
            let settled: String?? = state.withLock { state in
                if state.url != nil || state.error != nil { return .some(state.url) }
                state.waiter = continuation
                return nil
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}

/// SIGINT/SIGTERM, or a deadline, as something to await: `wait()` returns `true` once a stop is requested.
///
/// `@unchecked Sendable`: `sources` is set once in `init` and only cancelled in `deinit`; `state` is a `ThreadLocked`.
final class StopRequest: @unchecked Sendable {
    private let state = ThreadLocked<(requested: Bool, waiters: [CheckedContinuation<Bool, Never>])>((false, []))
    private var sources: [any DispatchSourceSignal] = []

    init() {
        StandardOutputSignals.handOver()
        // Ignored already by `Axon.main` (``StopSignals`` says why not again).
        sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.request() }
            source.resume()
            return source
        }
    }

    deinit { for source in sources { source.cancel() } }

    func request() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.requested = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    func request(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.request() }
    }

    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.requested { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume(returning: true) }
        }
    }
}

extension Axon.Demo {
    /// `axon demo --view`: the demo's replay (or test sequence) in the browser at 127.0.0.1:8080.
    func runView(_ specifier: SourceSpecifier?) async throws {
        var arguments = [specifier?.description ?? Self.defaultFile]
        switch specifier {
        case .testSequence?, .simulator?: arguments += ["--seconds", "\(seconds)", "--noise", "\(noise)"]
        case nil, .file?:
            arguments += ["--channels", channels ?? Self.defaultChannels, "--from", "\(from)"]
            arguments += to.map { ["--to", "\($0)"] } ?? (specifier == nil ? ["--to", "86"] : [])
            arguments += secondsOption.map { ["--seconds", "\($0)"] } ?? []
            arguments += fast ? ["--fast"] : ["--speed", "\(speed)"]
        default: arguments += bus.map { ["--bus", $0] } ?? []
        }
        arguments += ["--baseline", "\(baselineSeconds(builtIn: specifier == nil))", "--indicator", "\(indicator)"]
        arguments += filters.arguments
        arguments += powerBands.text.map { ["--bands", $0] } ?? []
        let view = try Axon.View.parse(arguments)
        try await view.run()
    }
}
#endif
