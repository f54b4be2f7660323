import AxonStreams
import Foundation

/// A ``AxonStreams/SampleSource`` that reads one device's raw stream back from JetStream
/// (`axon.raw.<partition>.<device>`) into a local pipeline: a recording of what a gateway published, or a live feed
/// with `follow`.
///
/// Frames keep their time (as the device time) and counter, so the pipeline's timeline finds the device's losses
/// again from the counters. Batches that do not decode are counted in ``Progress/undecodable`` and skipped.
///
/// Threading: `init` on any thread (it reads the first batch to learn the descriptor); `run` on the pipeline's
/// source thread, once.
///
///     let source = try JetStreamSampleSource(nats: nats, device: "headset-7")
///     let pipeline = StreamPipeline(source: source, sinks: [edfSink])
public struct JetStreamSampleSource: SampleSource {
    /// What the read found; readable after `run` returns.
    public final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (frames: 0, batches: 0, undecodable: 0)
        /// Frames written into the pipeline.
        public var frames: Int { lock.withLock { counts.frames } }
        /// Batches read.
        public var batches: Int { lock.withLock { counts.batches } }
        /// Messages skipped because they do not decode or are another stream's.
        public var undecodable: Int { lock.withLock { counts.undecodable } }
        func add(frames: Int) { lock.withLock { counts.frames += frames; counts.batches += 1 } }
        func reject() { lock.withLock { counts.undecodable += 1 } }
    }

    /// The device's stream (from its first batch).
    public let descriptor: StreamDescriptor
    /// The device.
    public let device: String
    /// Counters of the read.
    public let progress = Progress()
    private let nats: NATSConnection
    private let follow: Bool
    private let idleTimeout: Double

    /// Opens `device`'s raw stream and reads its first batch for the descriptor.
    ///
    /// - Parameters:
    ///   - follow: keep waiting for new batches (until the pipeline stops) instead of ending at the last one
    ///     stored when `run` starts.
    ///   - idleTimeout: seconds without a message after which a non-following read ends.
    /// - Throws: ``FleetError`` for a bad id, no stored batch, or a broker error.
    public init(nats: NATSConnection, device: String, follow: Bool = false, idleTimeout: Double = 5) throws(FleetError) {
        try FleetSubjects.validate(deviceID: device)
        self.nats = nats
        self.device = device
        self.follow = follow
        self.idleTimeout = idleTimeout
        do {
            let subscription = try nats.subscribeOrderedSync(
                stream: FleetSubjects.rawStream, subject: FleetSubjects.raw(device), startSequence: 1)
            defer { subscription.unsubscribe() }
            guard let first = try subscription.next(timeout: idleTimeout, headerKeys: FrameBatch.headerKeys) else {
                throw FleetError.badMessage("no raw batch of \(device) is stored")
            }
            descriptor = try FrameBatch.decode(first).descriptor
        } catch {
            throw FleetError.wrapping(error, decoding: "undecodable raw message")
        }
    }

    /// Writes every stored frame (and, following, every new one) until the end or a stop request.
    public func run(into writer: FrameWriter) throws {
        let last = try nats.streamState(FleetSubjects.rawStream).lastSequence
        let subscription = try nats.subscribeOrderedSync(
            stream: FleetSubjects.rawStream, subject: FleetSubjects.raw(device), startSequence: 1)
        defer { subscription.unsubscribe() }
        var idle = 0.0
        var values = [Double](repeating: 0, count: descriptor.channelCount)
        var waiting = IdleStrategy.napping
        while !writer.isStopRequested, follow || idle < idleTimeout {
            guard let message = try subscription.next(timeout: 0.5, headerKeys: FrameBatch.headerKeys) else {
                idle += 0.5
                continue
            }
            idle = 0
            if let batch = try? FrameBatch.decode(message), batch.descriptor == descriptor {
                let width = batch.rowWidth
                for frame in 0..<batch.frameCount {
                    // A lossless reader: wait while the ring is full rather than overflow it.
                    while writer.freeCapacity == 0, !writer.isStopRequested { waiting.idle() }
                    waiting.reset()
                    for channel in 0..<values.count { values[channel] = batch.rows[frame * width + 2 + channel] }
                    let counter = batch.rows[frame * width + 1]
                    writer.write(
                        values, deviceTime: batch.rows[frame * width], counter: counter.isNaN ? nil : UInt64(counter))
                }
                progress.add(frames: batch.frameCount)
            } else {
                progress.reject()
            }
            if !follow, message.streamSequence >= last { break }
        }
    }
}
