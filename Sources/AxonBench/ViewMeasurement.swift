// AxonBench — the engine's figures with no viewer of the live view and with several, side by side.
// Built with the LiveView trait (on by default; see Package.swift).
#if LiveView
import AxonEEG
import AxonRecording
import AxonStreams
import AxonView
import Foundation

/// Replays a recording through the engine and the live view (``AxonView/LiveViewHub`` and its server) with a number
/// of WebSocket viewers that read everything plus one that never reads, and measures what the engine's thread pays:
/// push → sinks latency, the engine stage's p99 per batch and allocations per hop on that thread. `axon view-bench`
/// alternates runs with 0 and N viewers and prints the two side by side.
///
///     let measurement = ViewMeasurement(speed: .realTime(multiplier: 20))
///     let idle = try await measurement.measure(recording, viewers: 0)
///     let watched = try await measurement.measure(recording, viewers: 5)
///
/// Threading: `measure` runs one replay at a time on the caller's task; the replay, the engine, the server and the
/// viewers run on threads of their own and are joined before it returns.
public struct ViewMeasurement: Sendable {
    /// One run's figures.
    public struct Figures: Sendable, Hashable {
        /// Push → sinks latency p99, seconds.
        public var latencyP99: Double
        /// The run's wall time, seconds.
        public var elapsed: Double
        /// The engine stage's p99 per batch, seconds.
        public var engineP99: Double
        /// Frames per engine batch, the mean.
        public var framesPerBatch: Double
        /// Allocations per hop on the engine's thread (timeline, engine, view sink).
        public var allocationsPerHop: Double
        /// Messages skipped for the viewer that never reads.
        public var skippedByStalled: Int
        /// The most messages queued at once for that viewer.
        public var stalledPeak: Int
        /// A viewer's queue capacity, in messages.
        public var queueCapacity: Int
        /// Bytes the reading viewers received, together.
        public var bytesRead: Int
    }

    /// How fast the recording is replayed.
    public var speed: RecordingReplaySource.Speed
    /// The CPU the engine's thread moves to at its first block (`nil`: it stays where the scheduler puts it).
    public var engineCPU: Int?

    /// A measurement replaying at `speed`, with the engine's thread on `engineCPU` when given.
    public init(speed: RecordingReplaySource.Speed, engineCPU: Int? = nil) {
        self.speed = speed
        self.engineCPU = engineCPU
    }

    /// `recording` played end to end as often as it takes to last `minutes` of device time (at least once): one
    /// pass of a short file takes milliseconds as fast as possible, too few batches for a p99, and the joins are
    /// ordinary signal to the engine.
    public static func repeated(_ recording: Recording, minutes: Double) -> Recording {
        let frames = Int(minutes * 60 * recording.sampleRate)
        let copies = max(1, (frames + recording.frameCount - 1) / recording.frameCount)
        return Recording(
            descriptor: recording.descriptor,
            values: Array([[Double]](repeating: recording.values, count: copies).joined()))
    }

    /// Replays `recording` once through the engine (12 s baseline, 10 s indicators) and the live view with `viewers`
    /// reading viewers and, when there are any, one more that never reads.
    ///
    /// - Throws: ``BenchError/setupFailed(_:cause:)`` when the engine, the server or a viewer's socket cannot be set
    ///   up.
    public func measure(_ recording: Recording, viewers: Int) async throws(BenchError) -> Figures {
        let configuration = EEGEngine.Configuration(
            sampleRate: recording.sampleRate, channelLabels: recording.descriptor.channels.map(\.label),
            baselineDuration: 12, indicatorPeriod: 10)
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: speed))
        let hub = LiveViewHub(descriptor: recording.descriptor, configuration: configuration)
        let probe = ThreadAllocationProbe(pinningTo: engineCPU)
        let session: EEGSession
        let server: LiveViewServer
        do {
            session = try EEGSession(
                source: replay, configuration: configuration, sinks: [hub.sink, probe],
                options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
            hub.attachStatistics { session.statistics() }
            try hub.start()
            server = try LiveViewServer(hub: hub, configuration: .init(port: 0))
        } catch { throw .setupFailed("the engine and the view", cause: error) }
        let (urls, listening) = AsyncStream.makeStream(of: String.self)
        let serverTask = Task {
            defer { listening.finish() }
            try await server.run { url in listening.yield(url) }
        }
        var first: String?
        for await url in urls {
            first = url
            break
        }
        guard let url = first, let port = URLComponents(string: url)?.port else {
            hub.stop()
            throw .setupFailed("the view's server did not start")
        }
        var clients: [RawWebSocketClient] = []
        defer {
            for client in clients { client.close() }
            serverTask.cancel()
        }
        if viewers > 0 {
            let token = server.configuration.token
            for _ in 0..<viewers { clients.append(try RawWebSocketClient(port: port, token: token, reading: true)) }
            clients.append(try RawWebSocketClient(port: port, token: token, reading: false))
            let deadline = Date().addingTimeInterval(10)
            while hub.viewerCount < clients.count, Date() < deadline { await Task.yield() }
        }
        session.startBaseline()
        do { try session.start() } catch {
            hub.stop()
            throw .setupFailed("the engine", cause: error)
        }
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
#endif
