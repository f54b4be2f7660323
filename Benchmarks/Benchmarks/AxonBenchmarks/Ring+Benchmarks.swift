import AxonStreams
import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Busy-waiting for the other side of the ring: spins, and only after `spinLimit` fruitless rounds in a row
/// yields the core on each round.
///
/// On an idle 2-core machine the other side is always running and the yield is never reached. On an
/// oversubscribed one (other processes spinning on both cores) a pure spin burns whole scheduler time slices
/// while the thread it waits for is not running, which measured ~1 µs per item instead of ~10–100 ns.
struct SpinWait {
    static var spinLimit: Int { 1 << 12 }
    private var rounds = 0

    @inline(__always)
    mutating func wait() {
        rounds &+= 1
        if rounds > Self.spinLimit { sched_yield() }
    }

    @inline(__always)
    mutating func reset() { rounds = 0 }
}

/// A ring with a consumer thread that pops until a stop is requested, so that a benchmark measures the real
/// cross-core hand-off rather than a push followed by a pop on the same core.
///
/// Threading contract: the benchmark thread is the ring's producer (`push…`, `waitUntilConsumed`, `stop`); the
/// consumer thread spins on `pop` and touches nothing else. Neither side allocates after `init`.
final class RingHandOff {
    let ring: SPSCRing<Double>
    /// Items (slots) moved per push and per pop: 1 for single-item hand-off, or the batch size.
    let batch: Int
    private let staging: UnsafeMutableBufferPointer<Double>
    private let consumer: WorkerThread
    private var pushed = 0

    /// Creates the ring and starts its consumer thread.
    init(capacity: Int, width: Int, batch: Int) {
        let ring = SPSCRing<Double>(capacity: capacity, width: width, overflow: .rejectNewest)
        self.ring = ring
        self.batch = batch
        staging = .allocate(capacity: batch * width)
        for index in staging.indices { staging.initializeElement(at: index, to: Double(index)) }
        // A benchmark cannot run without its consumer: failing to start one is fatal here.
        consumer = try! WorkerThread(name: "bench-consumer") { RingHandOff.consume(ring, batch: batch) }
        // One slot through the ring before any measurement: the consumer thread has then started and made its
        // own allocations (thread start-up, its pop buffer), which the process-wide malloc counters would
        // otherwise charge to the first measured iteration.
        while !ring.pushSlot({ $0.update(repeating: 0) }) { sched_yield() }
        waitUntilConsumed(1)
    }

    deinit { staging.deallocate() }

    /// The consumer thread's loop: pops one item (`pop()` for plain doubles) or up to `batch` slots at a time.
    private static func consume(_ ring: SPSCRing<Double>, batch: Int) {
        if ring.width == 1 && batch == 1 {
            var sum = 0.0
            var spin = SpinWait()
            while !ring.isStopRequested {
                if let value = ring.pop() {
                    sum += value
                    spin.reset()
                } else {
                    spin.wait()
                }
            }
            blackHole(sum)
        } else {
            // Allocated on the consumer thread before the first measurement starts.
            let buffer = UnsafeMutableBufferPointer<Double>.allocate(capacity: batch * ring.width)
            buffer.initialize(repeating: 0)
            defer { buffer.deallocate() }
            var spin = SpinWait()
            while !ring.isStopRequested {
                if ring.pop(into: buffer) > 0 { spin.reset() } else { spin.wait() }
            }
            blackHole(buffer[0])
        }
    }

    /// Pushes `count` single doubles with `push(_:)`, retrying whenever the ring is full.
    func pushSingleDoubles(_ count: Int) {
        for index in 0..<count {
            let value = Double(index)
            var spin = SpinWait()
            while !ring.push(value) { spin.wait() }
        }
        waitUntilConsumed(count)
    }

    /// Pushes `count` frames one slot at a time with `pushSlot`, retrying whenever the ring is full.
    func pushSingleFrames(_ count: Int) {
        for index in 0..<count {
            let value = Double(index)
            var spin = SpinWait()
            while !ring.pushSlot({ slot in
                for lane in slot.indices { slot[lane] = value }
            }) { spin.wait() }
        }
        waitUntilConsumed(count)
    }

    /// Pushes `count` slots (rounded down to whole batches: 0.006 % of 10^6) in batches of `batch` with
    /// `push(contentsOf:)`, retrying the part of a batch that did not fit.
    func pushBatches(_ count: Int) {
        let width = ring.width
        let batches = count / batch
        for _ in 0..<batches {
            var done = 0
            var spin = SpinWait()
            while done < batch {
                let accepted = ring.push(contentsOf: UnsafeBufferPointer(rebasing: staging[(done * width)...]))
                if accepted > 0 { done += accepted } else { spin.wait() }
            }
        }
        waitUntilConsumed(batches * batch)
    }

    /// Spins until the consumer has popped everything pushed so far, so the measurement covers the hand-off.
    private func waitUntilConsumed(_ count: Int) {
        pushed += count
        var spin = SpinWait()
        while ring.poppedCount < pushed { spin.wait() }
    }

    /// Stops the consumer and waits for it to end.
    func stop() {
        ring.requestStop()
        consumer.join()
    }
}

/// The set-up state of one ring benchmark; `teardown` gets no state, so it reaches the hand-off through here.
final class RingFixture {
    var handOff: RingHandOff?
}

func registerRingBenchmarks() {
    let frameWidth = FrameLayout(channelCount: 4).width  // 9 doubles: 5 header lanes + 4 channels

    func ringBenchmark(
        _ name: String, capacity: Int, width: Int, batch: Int,
        body: @escaping (RingHandOff, Int) -> Void
    ) {
        let fixture = RingFixture()
        Benchmark(
            name,
            configuration: .init(scalingFactor: .mega)
        ) { benchmark in
            body(fixture.handOff!, benchmark.scaledIterations.count)
        } setup: {
            fixture.handOff = RingHandOff(capacity: capacity, width: width, batch: batch)
        } teardown: {
            fixture.handOff?.stop()
            fixture.handOff = nil
        }
    }

    ringBenchmark("Ring.pushPop.single.Double", capacity: 4096, width: 1, batch: 1) { $0.pushSingleDoubles($1) }
    ringBenchmark("Ring.pushPop.single.Frame4", capacity: 4096, width: frameWidth, batch: 1) {
        $0.pushSingleFrames($1)
    }
    ringBenchmark("Ring.pushPop.batch256.Double", capacity: 8192, width: 1, batch: 256) { $0.pushBatches($1) }
    ringBenchmark("Ring.pushPop.batch256.Frame4", capacity: 8192, width: frameWidth, batch: 256) {
        $0.pushBatches($1)
    }
    // A 64-channel frame (69 doubles): the batch hand-off at the widest device `axon bench` scales to.
    ringBenchmark(
        "Ring.pushPop.batch256.Frame64", capacity: 8192, width: FrameLayout(channelCount: 64).width, batch: 256
    ) { $0.pushBatches($1) }
}
