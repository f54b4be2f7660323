// Built with the LiveView trait (on by default; see Package.swift).
#if LiveView
import ArgumentParser
import AxonBench
import AxonEEG
import AxonRecording
import AxonStreams
import AxonView
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Axon {
    /// `axon view-bench`: the engine's figures with no viewer and with several, side by side in one run.
    struct ViewBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "view-bench",
            abstract: "Replay a recording fast through the engine and the live view, with no viewer and "
                + "with N WebSocket viewers (plus one that never reads), alternating; print latency p99, the engine "
                + "stage's p99 and allocations per hop on the engine's thread for both.")

        @Argument(help: "Recording to replay.")
        var file: String = Demo.defaultFile

        @Option(help: "Channels to use (comma-separated labels).")
        var channels: String = "EXG2,EXG3,EXG6,EXG7"

        @Option(help: "Viewers that read everything.")
        var viewers: Int = 5

        @Option(help: "Runs of each kind (they alternate).")
        var runs: Int = 3

        @Option(help: "Replay speed (the latency is only meaningful when the engine keeps up).")
        var speed: Double = 20

        @Flag(help: "Replay as fast as possible instead (the engine's per-batch time is then the latency figure).")
        var fast = false

        @Option(help: "With --fast: minutes of device time per run (the recording played end to end repeatedly).")
        var minutes: Double = 240

        @Flag(help: ArgumentHelp("Let the engine's thread share CPUs with the viewers, the server and the replay.",
            discussion: "By default it gets a CPU of its own when there are two or more, so that its figures count "
                + "its own work rather than the scheduler's choices."))
        var sharedCores = false

        func validate() throws {
            guard viewers >= 1, runs >= 1, speed > 0, minutes > 0 else {
                throw ValidationError("need viewers, runs, speed and minutes > 0")
            }
        }

        struct Figures {
            var latencyP99: Double
            var elapsed: Double
            var engineP99: Double
            var framesPerBatch: Double
            var allocationsPerHop: Double
            var skippedByStalled: Int
            var stalledPeak: Int
            var queueCapacity: Int
            var bytesRead: Int
        }

        func run() async throws {
            let labels = channels.split(separator: ",").map { String($0) }
            var recording = try RecordingReader.read(path: file).selecting(channels: labels)
            if fast {
                // One pass of a short file takes milliseconds: too few batches for a p99. Played end to end (the
                // joins are ordinary signal to the engine), a run lasts long enough for its tail to mean something.
                let frames = Int(minutes * 60 * recording.sampleRate)
                let copies = max(1, (frames + recording.frameCount - 1) / recording.frameCount)
                recording = Recording(
                    descriptor: recording.descriptor,
                    values: Array([[Double]](repeating: recording.values, count: copies).joined()))
            }
            print("axon view-bench: \(URL(fileURLWithPath: file).lastPathComponent) "
                + "(\(recording.frameCount) samples), " + (fast ? "as fast as possible" : "at \(fmt(speed, 0))× real time")
                + "; \(runs) runs each of 0 and \(viewers) viewers "
                + "(+1 that never reads), alternating")
            let cpus = CPUAffinity.available
            var engineCPU: Int?
            if !sharedCores, cpus.count >= 2, CPUAffinity.pinProcess(to: Array(cpus.dropFirst())) {
                engineCPU = cpus[0]
                print("the engine's thread on CPU \(cpus[0]), every other thread on CPU "
                    + cpus.dropFirst().map(String.init).joined(separator: ",") + " (--shared-cores to mix them)")
            }
            var without: [Figures] = []
            var with: [Figures] = []
            for _ in 0..<runs {
                without.append(try await measure(recording, viewers: 0, engineCPU: engineCPU))
                with.append(try await measure(recording, viewers: viewers, engineCPU: engineCPU))
            }
            func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            let rows: [(String, (Figures) -> Double, String)] = [
                ("latency p99 (push → sinks)", { $0.latencyP99 * 1e3 }, "ms"),
                ("engine stage p99 per batch", { $0.engineP99 * 1e6 }, "µs"),
                ("frames per engine batch (mean)", { $0.framesPerBatch }, ""),
                ("allocations per hop, engine thread", { $0.allocationsPerHop }, ""),
                ("run's wall time (s)", { $0.elapsed }, ""),
            ]
            // The ranges show how far single runs stray: a ratio of medians is only as good as the runs' spread.
            print("figure (median of \(runs))".padding(toLength: 38, withPad: " ", startingAt: 0)
                + "0 viewers".leftPadded(12) + "\(viewers) viewers".leftPadded(12) + "ratio".leftPadded(8)
                + "   range of runs: 0 / \(viewers) viewers")
            for (name, value, unit) in rows {
                let a = median(without.map(value))
                let b = median(with.map(value))
                func range(_ figures: [Figures]) -> String {
                    let values = figures.map(value)
                    return fmt(values.min() ?? 0, 3) + "–" + fmt(values.max() ?? 0, 3)
                }
                print((name + (unit.isEmpty ? "" : " (\(unit))")).padding(toLength: 38, withPad: " ", startingAt: 0)
                    + fmt(a, 3).leftPadded(12) + fmt(b, 3).leftPadded(12)
                    + (a > 0 ? fmt(b / a, 3) : "–").leftPadded(8) + "   " + range(without) + " / " + range(with))
            }
            if fast {
                print("(as fast as possible: a replay stamps virtual arrival times, so push → sinks counts queueing; the "
                    + "engine stage's p99 per batch is the latency figure)")
            }
            let stalled = with.map(\.stalledPeak).max() ?? 0
            print("viewer that never reads: at most \(stalled) of \(with.first?.queueCapacity ?? 0) messages queued, "
                + "\(with.map(\.skippedByStalled).max() ?? 0) skipped; readers received "
                + "\(fmt(Double(with.map(\.bytesRead).reduce(0, +)) / Double(runs) / 1e6, 2)) MB per run")
        }

        private func measure(_ recording: Recording, viewers: Int, engineCPU: Int?) async throws -> Figures {
            let configuration = EEGEngine.Configuration(
                sampleRate: recording.sampleRate, channelLabels: recording.descriptor.channels.map(\.label),
                baselineDuration: 12, indicatorPeriod: 10)
            let replay = RecordingReplaySource(
                recording: recording, options: .init(speed: fast ? .asFastAsPossible : .realTime(multiplier: speed)))
            let hub = LiveViewHub(descriptor: recording.descriptor, configuration: configuration)
            let probe = ThreadAllocationProbe(pinningTo: engineCPU)
            let session = try EEGSession(
                source: replay, configuration: configuration, sinks: [hub.sink, probe],
                options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
            hub.attachStatistics { session.statistics() }
            try hub.start()
            let server = try LiveViewServer(hub: hub, configuration: .init(port: 0))
            let listening = ListeningSignal()
            let serverTask = Task { try await server.run { url in listening.listening(url) } }
            guard let url = await listening.wait(), let port = URLComponents(string: url)?.port else {
                throw CommandFailure("the view's server did not start")
            }
            var clients: [RawWebSocketClient] = []
            if viewers > 0 {
                let token = server.configuration.token
                for _ in 0..<viewers { clients.append(try RawWebSocketClient(port: port, token: token, reading: true)) }
                clients.append(try RawWebSocketClient(port: port, token: token, reading: false))
                let deadline = Date().addingTimeInterval(10)
                while hub.viewerCount < clients.count, Date() < deadline { await Task.yield() }
            }
            session.startBaseline()
            try session.start()
            let feeder = Task {
                for await frame in session.spectra { hub.publish(frame) }
            }
            for await indicator in session.indicators { hub.publish(indicator) }
            await feeder.value
            session.waitUntilFinished()
            let statistics = session.statistics()
            hub.finish(summary: "bench")
            let queues = hub.viewerQueues()
            hub.stop()
            for client in clients { client.close() }
            serverTask.cancel()
            let hops = max(1, statistics.delivered / configuration.hop)
            let engine = statistics.stages.first { $0.name == "eeg" }
            return Figures(
                latencyP99: statistics.latency.p99, elapsed: statistics.elapsed,
                engineP99: engine?.p99 ?? 0,
                framesPerBatch: Double(statistics.delivered) / Double(max(1, engine?.count ?? 0)),
                allocationsPerHop: Double(probe.allocations) / Double(hops),
                skippedByStalled: queues.map(\.skipped).max() ?? 0, stalledPeak: queues.map(\.peak).max() ?? 0,
                queueCapacity: hub.options.queueCapacity, bytesRead: clients.map(\.bytesRead).reduce(0, +))
        }
    }
}

/// A sink after the engine that reads the consumer thread's allocation count at its first block and at the end:
/// what the engine's thread (timeline, engine, view sink) allocated in between. With a CPU given, the consumer thread
/// moves itself there at its first block (before counting).
final class ThreadAllocationProbe: SampleSink, @unchecked Sendable {
    let name = "allocation-probe"
    private let cpu: Int?
    private var first: UInt64?
    /// Set on the consumer thread in `close`, read after the pipeline has been joined.
    private(set) var allocations: UInt64 = 0

    init(pinningTo cpu: Int?) { self.cpu = cpu }

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        guard first == nil else { return }
        if let cpu { CPUAffinity.pinCurrentThread(to: [cpu]) }
        first = AllocationCounter.threadCount
    }

    func close() throws { allocations = AllocationCounter.threadCount &- (first ?? AllocationCounter.threadCount) }
}

/// The smallest WebSocket client that loads a server like a browser does: the upgrade, then reading (and
/// discarding) every byte on a thread of its own — or, with `reading` false, never reading at all. It passes the
/// view's token in the upgrade's target, as a program (not a browser: no cookie, no Origin) does.
final class RawWebSocketClient: @unchecked Sendable {
    private final class Counter: Sendable { let bytes = ThreadLocked(0) }

    private let socket: Int32
    private let read = Counter()
    private var thread: Thread?

    init(port: Int, token: String?, reading: Bool) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ValidationError("socket: errno \(errno)") }
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ValidationError("connect to 127.0.0.1:\(port): errno \(errno)") }
        let query = token.map { "?token=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }
        let request = Array(("GET /ws\(query ?? "") HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        guard write(socket, request, request.count) == request.count else {
            throw CommandFailure("writing the upgrade request failed")
        }
        guard reading else { return }
        let read = read
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = Glibc.read(socket, &buffer, buffer.count)
                if count <= 0 { break }
                read.bytes.withLock { $0 += count }
            }
        }
        thread.start()
        self.thread = thread
    }

    var bytesRead: Int { read.bytes.withLock { $0 } }

    func close() {
        shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
    }
}
#endif
