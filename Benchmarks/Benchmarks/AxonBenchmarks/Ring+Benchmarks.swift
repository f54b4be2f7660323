import AxonStreams
import Benchmark

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
    private let consumer: JoinableThread
    private var pushed = 0

    /// Creates the ring and starts its consumer thread.
    init(capacity: Int, width: Int, batch: Int) {
        let ring = SPSCRing<Double>(capacity: capacity, width: width, overflow: .rejectNewest)
        self.ring = ring
        self.batch = batch
        staging = .allocate(capacity: batch * width)
        for index in staging.indices { staging.initializeElement(at: index, to: Double(index)) }
        consumer = JoinableThread { RingHandOff.consume(ring, batch: batch) }
    }

    deinit { staging.deallocate() }

    /// The consumer thread's loop: pops one item (`pop()` for plain doubles) or up to `batch` slots at a time.
    private static func consume(_ ring: SPSCRing<Double>, batch: Int) {
        if ring.width == 1 && batch == 1 {
            var sum = 0.0
            while !ring.isStopRequested {
                if let value = ring.pop() { sum += value }
            }
            blackHole(sum)
        } else {
            // Allocated on the consumer thread before the first measurement starts.
            let buffer = UnsafeMutableBufferPointer<Double>.allocate(capacity: batch * ring.width)
            buffer.initialize(repeating: 0)
            defer { buffer.deallocate() }
            while !ring.isStopRequested { _ = ring.pop(into: buffer) }
            blackHole(buffer[0])
        }
    }

    /// Pushes `count` single doubles with `push(_:)`, retrying whenever the ring is full.
    func pushSingleDoubles(_ count: Int) {
        for index in 0..<count {
            let value = Double(index)
            while !ring.push(value) {}
        }
        waitUntilConsumed(count)
    }

    /// Pushes `count` frames one slot at a time with `pushSlot`, retrying whenever the ring is full.
    func pushSingleFrames(_ count: Int) {
        for index in 0..<count {
            let value = Double(index)
            while !ring.pushSlot({ slot in
                for lane in slot.indices { slot[lane] = value }
            }) {}
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
            while done < batch {
                done += ring.push(contentsOf: UnsafeBufferPointer(rebasing: staging[(done * width)...]))
            }
        }
        waitUntilConsumed(batches * batch)
    }

    /// Spins until the consumer has popped everything pushed so far, so the measurement covers the hand-off.
    private func waitUntilConsumed(_ count: Int) {
        pushed += count
        while ring.poppedCount < pushed {}
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
}
