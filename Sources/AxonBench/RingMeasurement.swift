// AxonBench — the SPSC ring's hand-off between two threads, one frame at a time and in batches.

import AxonMemory
import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// Times frames (one slot = header lanes + channels doubles, as a pipeline ring holds them) moving from the
/// calling thread to a consumer thread that pops until stopped: one slot per `pushSlot`/`pop(into:)`, or
/// `batch` slots per `push(contentsOf:)`/`pop(into:)`. A run ends when the consumer has popped everything, so
/// the time covers the real cross-core hand-off.
///
/// Threading: the calling thread is the ring's producer (`run`, `stop`); the consumer thread only pops.
public final class RingMeasurement {
    /// The measured figures.
    public struct Result: Sendable, Hashable {
        /// Slots per push and pop (1 = single).
        public var batch: Int
        /// Frames moved per second (median of runs).
        public var itemsPerSecond: Double
        /// Heap allocations per batch (per frame when `batch` is 1) in the steady state, both threads counted
        /// (`nil` when counting is off).
        public var allocationsPerBatch: Double?
    }

    let ring: SPSCRing<Double>
    let batch: Int
    private let staging: OwnedBuffer<Double>
    private let consumer: WorkerThread
    private var pushed = 0
    private var stopped = false
    /// The calling thread's CPU set before the measurement pinned it.
    private var previousCPUs: RealTimeOptions?

    /// Creates an 8192-slot ring of the workload's frames and starts its consumer thread.
    public init(_ workload: BenchWorkload, batch: Int) throws(BenchError) {
        precondition(batch >= 1 && batch <= 4096)
        let ring = SPSCRing<Double>(capacity: 8192, width: workload.frameWidth, overflow: .rejectNewest)
        self.ring = ring
        self.batch = batch
        staging = OwnedBuffer(copying: (0..<(batch * ring.width)).lazy.map(Double.init))
        do {
            consumer = try WorkerThread(name: "axon-bench-ring-consumer") {
                _ = Self.placement?.consumer.applyToCurrentThread()
                Self.consume(ring, batch: batch)
            }
        } catch {
            throw .setupFailed("ring consumer thread", cause: error)
        }
        if let placement = Self.placement {
            previousCPUs = .currentThreadCPUs()
            _ = placement.producer.applyToCurrentThread()
        }
        // One batch through before timing: the consumer thread has started and made its pop buffer.
        pushBatches(1)
    }

    /// With two CPUs or more: the producer (the calling thread) on CPU 0, the consumer on CPU 1, and the caller's
    /// own CPU set again afterwards (``stop()``). Left to the scheduler both threads sometimes share one CPU, the ring then fills
    /// and drains without crossing cores, and one run is several times faster than the next; `make compare`'s C++
    /// queues are placed the same way.
    static var placement: (producer: RealTimeOptions, consumer: RealTimeOptions)? {
        guard sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 else { return nil }
        return (RealTimeOptions(cpus: [0]), RealTimeOptions(cpus: [1]))
    }

    deinit { stop() }

    private static func consume(_ ring: SPSCRing<Double>, batch: Int) {
        let buffer = OwnedBuffer<Double>(repeating: 0, count: batch * ring.width)
        var spin = SpinWait()
        var sum = 0.0
        while !ring.isStopRequested {
            if buffer.withUnsafeMutableBufferPointer({ ring.pop(into: $0) }) > 0 {
                sum += buffer[0]
                spin.reset()
            } else {
                spin.wait()
            }
        }
        if sum.isNaN { print("") }  // keeps the reads observable
    }

    /// Pushes `count` batches (retrying whatever did not fit) and waits until the consumer has popped them.
    func pushBatches(_ count: Int) {
        let width = ring.width
        for _ in 0..<count {
            if batch == 1 {
                var spin = SpinWait()
                // The frame copied lane by lane, as a C++ queue copies its frame struct.
                while !ring.pushSlot({ slot in
                    for lane in 0..<width { slot[lane] = staging[lane] }
                }) { spin.wait() }
            } else {
                var done = 0
                var spin = SpinWait()
                while done < batch {
                    let accepted = staging.withUnsafeBufferPointer { staged in
                        ring.push(contentsOf: UnsafeBufferPointer(rebasing: staged[(done * width)..<(batch * width)]))
                    }
                    if accepted > 0 { done += accepted } else { spin.wait() }
                }
            }
        }
        pushed += count * batch
        var spin = SpinWait()
        while ring.poppedCount < pushed { spin.wait() }
    }

    /// Times batches within `timing`'s budget, then counts the allocations of 1000 more.
    public func run(timing: RepeatedTiming) -> Result {
        let timed = timing.measure { count in self.pushBatches(count) }
        let allocations = AllocationCounter.perUnit(1000) { pushBatches(1000) }
        return Result(
            batch: batch, itemsPerSecond: 1e9 / timed.medianNanoseconds * Double(batch),
            allocationsPerBatch: allocations)
    }

    /// Stops the consumer and joins it. Calling it again does nothing.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        ring.requestStop()
        consumer.join()
        _ = previousCPUs?.applyToCurrentThread()
    }
}

/// Busy-waiting for the other side of a ring: spins, and after `limit` fruitless rounds in a row yields the core
/// on each round, so that on an oversubscribed machine a waiting thread does not burn the time slice of the
/// thread it waits for.
struct SpinWait {
    private static let limit = 1 << 12
    private var rounds = 0

    @inline(__always) mutating func wait() {
        rounds &+= 1
        if rounds > Self.limit { sched_yield() }
    }

    @inline(__always) mutating func reset() { rounds = 0 }
}
