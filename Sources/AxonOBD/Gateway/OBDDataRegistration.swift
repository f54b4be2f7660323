import AxonStreams
import Synchronization

/// One continuous registration: its PIDs, the stream they are published in and the thread that polls them.
///
/// Each tick reads the PIDs one after another (through the gateway's one client) and writes one frame — one channel
/// per PID, in registration order — with the tick number as the frame's counter. A PID unregistered on its own
/// (``OBDGateway/unregisterDataPIDs(requestID:pids:)``) is no longer read; its channel carries NaN from then on, so
/// the stream and its sinks stay as they were. A tick that cannot read every PID still registered
/// (link lost, NO DATA) writes nothing, so the stream's timeline turns the missing tick numbers into a
/// ``AxonStreams/GapRecord`` before the next frame.
///
/// Threading contract: created and stopped by the gateway; the writer is used only on the poller's thread.
public final class OBDDataRegistration: Sendable {
    /// The request id (the seed's `DPid`).
    public let requestID: Int
    /// The PIDs, in channel order.
    public let pids: [OBDStandardPID]
    /// Polls per second.
    public let rate: Double
    /// The stream the values are published in.
    public let descriptor: StreamDescriptor
    let pipeline: StreamPipeline
    private let poller: ThreadLocked<OBDPoller?> = ThreadLocked(nil)
    private let framesWritten = Atomic<Int>(0)
    private let ticksMissed = Atomic<Int>(0)
    private let linkLost = Atomic<Bool>(false)
    /// Bit `i` set: `pids[i]` is still polled.
    private let activeMask: Atomic<Int>

    init(
        requestID: Int, pids: [OBDStandardPID], rate: Double, descriptor: StreamDescriptor, pipeline: StreamPipeline
    ) {
        self.requestID = requestID
        self.pids = pids
        self.rate = rate
        self.descriptor = descriptor
        self.pipeline = pipeline
        activeMask = Atomic((1 << pids.count) - 1)
    }

    /// The PIDs still polled, in channel order.
    public var activePIDs: [OBDStandardPID] {
        let mask = activeMask.load(ordering: .relaxed)
        return pids.indices.filter { mask & (1 << $0) != 0 }.map { pids[$0] }
    }

    /// Stops polling the PIDs at `slots` (channel indices); how many stay polled.
    func deactivate(_ slots: [Int]) -> Int {
        let cleared = slots.reduce(0) { $0 | 1 << $1 }
        let left = activeMask.bitwiseAnd(~cleared, ordering: .relaxed).newValue
        return left.nonzeroBitCount
    }

    /// Starts the pipeline and the poller; `read` returns one value per PID or `nil`.
    func start(read: @escaping @Sendable ([OBDStandardPID]) -> [Double]?) throws(OBDGatewayError) {
        let writer: FrameWriter
        do {
            writer = try pipeline.makeWriter()
            try pipeline.start()
        } catch {
            throw .pipeline(error)
        }
        let pids = self.pids
        let poller = try OBDPoller(name: "axon-obd-\(requestID)", rate: rate) { [self] tick in
            let mask = activeMask.load(ordering: .relaxed)
            let slots = pids.indices.filter { mask & (1 << $0) != 0 }
            if let read = read(slots.map { pids[$0] }) {
                var values = [Double](repeating: .nan, count: pids.count)
                for (slot, value) in zip(slots, read) { values[slot] = value }
                // Poller thread: the stream's producer, so the mark goes on the next frame it writes.
                if linkLost.exchange(false, ordering: .relaxed) { writer.noteLinkLoss() }
                writer.write(values, counter: tick)
                framesWritten.add(1, ordering: .relaxed)
            } else {
                ticksMissed.add(1, ordering: .relaxed)
            }
        }
        self.poller.withLock { $0 = poller }
    }

    /// Marks the stream: the link was lost, so the ticks missed until the next frame are one `.linkLoss` gap.
    /// Any thread.
    func noteLinkLoss() { linkLost.store(true, ordering: .relaxed) }

    /// Frames published so far.
    public var frameCount: Int { framesWritten.load(ordering: .relaxed) }
    /// Ticks that could not be read (each a missing sample in the stream).
    public var missedTicks: Int { ticksMissed.load(ordering: .relaxed) }
    /// The stream's statistics (gap records, missing frames, delivery).
    public func statistics() -> PipelineStatistics { pipeline.statistics() }

    /// Stops polling, then delivers what is buffered to the sinks and closes them.
    func stop() {
        let poller = self.poller.withLock { state -> OBDPoller? in
            defer { state = nil }
            return state
        }
        guard let poller else { return }
        poller.stop()
        pipeline.stop()
    }
}
