import AxonMemory
import AxonStreams
import Foundation

/// `axon fleet simulate`: N ``FleetSimulatedDevice`` headsets published as gateways would, each through its own
/// ``FleetPublisher`` (batches, ids, spool), spread over a few publishing threads; paced in real time, or as fast
/// as the broker acknowledges (`fast`).
///
/// Threading: ``run()`` blocks the caller until every device has published its data (or spooled what the broker
/// would not take before the finish deadline); the publishing threads are its own.
public final class FleetSimulator: @unchecked Sendable {
    /// What to simulate.
    public struct Options: Sendable {
        /// Devices `sim-0000` … `sim-(N−1)`, or from ``firstIndex``.
        public var devices: Int
        /// Index of the first device.
        public var firstIndex: Int
        /// Seconds of data per device.
        public var seconds: Double
        /// Publish as fast as acknowledged instead of in real time.
        public var fast: Bool
        /// Publishing threads.
        public var threads: Int
        /// The publishers' options (batch size, spool).
        public var publisher: FleetPublisher.Options

        /// Creates options.
        public init(devices: Int, firstIndex: Int = 0, seconds: Double, fast: Bool, threads: Int = 4,
                    publisher: FleetPublisher.Options) {
            self.devices = devices
            self.firstIndex = firstIndex
            self.seconds = seconds
            self.fast = fast
            self.threads = threads
            self.publisher = publisher
        }
    }

    /// What a run did.
    public struct Summary: Sendable, Codable {
        /// Per device.
        public var devices: [FleetPublisher.Statistics]
        /// Wall-clock seconds of the run.
        public var seconds: Double
        /// Frames published (or left in spools).
        public var frames: Int { devices.reduce(0) { $0 + $1.frames } }
    }

    private let nats: NATSConnection
    private let options: Options
    private let lock = NSLock()
    private var results: [FleetPublisher.Statistics] = []
    private var failure: (any Error)?

    /// Creates a simulator publishing through `nats`.
    public init(nats: NATSConnection, options: Options) throws(FleetError) {
        guard options.devices >= 1, options.seconds > 0, options.threads >= 1 else {
            throw .invalidOption("simulate needs devices ≥ 1, seconds > 0, threads ≥ 1")
        }
        self.nats = nats
        self.options = options
    }

    /// Publishes every device's data; returns when done.
    ///
    /// - Throws: ``FleetError`` when a device's publisher cannot be made (a spool folder that cannot be used).
    public func run() throws -> Summary {
        let started = Date().timeIntervalSince1970
        let threadCount = min(options.threads, options.devices)
        let group = DispatchGroup()
        for thread in 0..<threadCount {
            let indices = stride(from: thread, to: options.devices, by: threadCount).map { options.firstIndex + $0 }
            group.enter()
            let worker = Thread { [self] in
                defer { group.leave() }
                do { try publish(indices) } catch {
                    lock.withLock { failure = failure ?? error }
                }
            }
            worker.name = "axon-fleet-sim-\(thread)"
            worker.start()
        }
        group.wait()
        if let failure { throw failure }
        let devices = lock.withLock { results.sorted { $0.device < $1.device } }
        return Summary(devices: devices, seconds: Date().timeIntervalSince1970 - started)
    }

    /// One thread's devices, half a batch of each in turn, paced against the host clock unless fast.
    private func publish(_ indices: [Int]) throws {
        let devices = indices.map { FleetSimulatedDevice(index: $0) }
        let publishers = try devices.map {
            try FleetPublisher(nats: nats, device: $0.id, descriptor: $0.descriptor, options: options.publisher)
        }
        var cursors = devices.map { FleetSimulatedDevice.Cursor(device: $0, seconds: options.seconds) }
        let frameValues = OwnedBuffer<Double>(repeating: 0, count: 4)
        let tick = Double(options.publisher.batchFrames) / FleetSimulatedDevice.rate
        let start = HostClock.now()
        let total = Int((options.seconds * FleetSimulatedDevice.rate).rounded())
        var tickIndex = 0
        while cursors.contains(where: { $0.sample < total }) {
            tickIndex += 1
            let end = min(total, tickIndex * options.publisher.batchFrames)
            if !options.fast { HostClock.sleep(until: start + Double(tickIndex) * tick) }  // simulated devices' pacing
            for (slot, publisher) in publishers.enumerated() {
                frameValues.withUnsafeMutableBufferPointer { values in
                    while cursors[slot].sample < end, let frame = cursors[slot].next(into: values) {
                        if frame.lostBefore > 0 { publisher.noteGap(missing: frame.lostBefore, cause: .deviceCounter) }
                        publisher.append(
                            time: frame.time, counter: Double(frame.sample), values: UnsafeBufferPointer(values))
                    }
                }
                // A batch ends with the tick even when losses made it short: data leaves at the device's pace.
                publisher.flush()
            }
        }
        let deadline = Date().timeIntervalSince1970 + 60
        for publisher in publishers { publisher.finish(deadline: deadline) }
        lock.withLock { results.append(contentsOf: publishers.map(\.statistics)) }
    }
}
