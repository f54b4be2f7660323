import AxonStreams
import Benchmark

/// A sink that measures each frame's push-to-sink latency and hands it back to the benchmark thread through a
/// ring, so the measured loop needs neither a lock nor an allocation.
///
/// Threading contract: `write` runs on the pipeline's consumer thread, which is the results ring's producer; the
/// benchmark thread is its consumer.
final class LatencySink: SampleSink {
    let name = "latency"
    private let results: SPSCRing<Double>

    init(results: SPSCRing<Double>) { self.results = results }

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        // Every frame of the block reaches the sink now; its latency is the time since the writer stamped it.
        let now = HostClock.now()
        for frame in 0..<block.frameCount {
            results.push(now - block.arrivalTime(ofFrame: frame))
        }
    }

    func close() throws {}
}

/// A running 4-channel 250 Hz pipeline fed by the benchmark thread through `makeWriter()`.
final class PipelineFixture {
    let pipeline: StreamPipeline
    let writer: FrameWriter
    let results: SPSCRing<Double>
    private let values: UnsafeMutableBufferPointer<Double>
    /// One iteration's latencies in seconds, filled from the results ring.
    let latencies: UnsafeMutableBufferPointer<Double>
    /// Every latency seen, in seconds, for the percentiles printed at teardown (appended outside measurement).
    var allLatencies: [Double] = []
    private var counter: UInt64 = 0

    init(framesPerIteration: Int) throws {
        let descriptor = StreamDescriptor(
            name: "Benchmark EEG", contentType: .eeg,
            channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV") },
            nominalRate: 250, format: .float32, sourceID: "benchmark")
        // Room for several iterations' worth, although each iteration drains its own frames.
        results = SPSCRing(
            capacity: SPSCRing<Double>.powerOfTwo(atLeast: 4 * framesPerIteration), overflow: .rejectNewest)
        pipeline = StreamPipeline(
            descriptor: descriptor, sinks: [LatencySink(results: results)],
            configuration: .init(
                ringCapacity: 4096, overflow: .rejectNewest,
                idle: IdleStrategy(spins: 1_000_000, park: 0)))  // busy consumer: measures latency, not parking
        writer = try pipeline.makeWriter()
        values = .allocate(capacity: 4)
        _ = values.initialize(fromContentsOf: [12.5, -3.1, 7.0, 0.4])
        latencies = .allocate(capacity: framesPerIteration)
        latencies.initialize(repeating: 0)
        allLatencies.reserveCapacity(1 << 20)
        try pipeline.start()
        // One frame end to end before any measurement, so that thread start-up and the stages' first-use costs
        // are not charged to the first measured iteration.
        writeAndCollect(1)
    }

    deinit {
        values.deallocate()
        latencies.deallocate()
    }

    /// Writes `count` frames, then pops latencies until every one of them has reached the sink.
    func writeAndCollect(_ count: Int) {
        precondition(count <= latencies.count)
        let frame = UnsafeBufferPointer(values)
        for _ in 0..<count {
            counter &+= 1
            // Every frame is delivered: the writer waits for room rather than have a write rejected.
            while writer.freeCapacity == 0 {}  // a rejected write would count as a lost frame
            writer.write(frame, counter: counter)
        }
        var received = 0
        while received < count {
            received += results.pop(into: UnsafeMutableBufferPointer(rebasing: latencies[received..<count]))
        }
    }

    /// Writes `count` frames one at a time, each only after the previous one has reached the sink: the latency
    /// of an isolated frame, as a 250 Hz stream sees it, without the queueing of a burst.
    func roundTrips(_ count: Int) {
        precondition(count <= latencies.count)
        let frame = UnsafeBufferPointer(values)
        for index in 0..<count {
            counter &+= 1
            while writer.freeCapacity == 0 {}  // a rejected write would count as a lost frame
            writer.write(frame, counter: counter)
            let slot = UnsafeMutableBufferPointer(rebasing: latencies[index..<(index + 1)])
            while results.pop(into: slot) == 0 {}
        }
    }

    func stop() {
        writer.finish()
        pipeline.waitUntilFinished()
    }
}

final class PipelineFixtureBox {
    var fixture: PipelineFixture?
}

extension BenchmarkMetric {
    /// Push-to-sink latency of each frame, one sample per frame.
    static var frameLatency: BenchmarkMetric {
        .custom("Frame latency (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    }
    /// The 99th percentile of one iteration's frame latencies, one sample per iteration.
    static var frameLatencyP99: BenchmarkMetric {
        .custom("Frame latency p99 (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    }
}

/// `sorted[index]` for the `fraction` percentile (nearest rank) of a sorted, non-empty buffer.
func percentile(_ sorted: UnsafeBufferPointer<Double>, _ fraction: Double) -> Double {
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func registerPipelineBenchmarks() {
    let framesPerIteration = BenchmarkScalingFactor.kilo.rawValue

    func pipelineBenchmark(
        _ name: String, scalingFactor: BenchmarkScalingFactor, extraMetrics: [BenchmarkMetric],
        body: @escaping (PipelineFixture, Int) -> Void
    ) {
        let box = PipelineFixtureBox()
        Benchmark(
            name,
            configuration: .init(
                metrics: Benchmark.defaultConfiguration.metrics + extraMetrics, scalingFactor: scalingFactor)
        ) { benchmark in
            let fixture = box.fixture!
            let count = benchmark.scaledIterations.count
            body(fixture, count)
            benchmark.stopMeasurement()

            // Outside the measured region: report this iteration's latencies.
            var latencies = UnsafeMutableBufferPointer(rebasing: fixture.latencies[0..<count])
            latencies.sort()
            for latency in latencies {
                benchmark.measurement(.frameLatency, Int((latency * 1e9).rounded()))
            }
            if benchmark.configuration.metrics.contains(.frameLatencyP99) {
                let p99 = percentile(UnsafeBufferPointer(latencies), 0.99)
                benchmark.measurement(.frameLatencyP99, Int((p99 * 1e9).rounded()))
            }
            fixture.allLatencies.append(contentsOf: latencies)
        } setup: {
            box.fixture = try PipelineFixture(framesPerIteration: framesPerIteration)
        } teardown: {
            guard let fixture = box.fixture else { return }
            fixture.stop()
            var all = fixture.allLatencies
            all.sort()
            if !all.isEmpty {
                all.withUnsafeBufferPointer { sorted in
                    let report = [0.5, 0.9, 0.99, 0.999, 1.0].map { fraction in
                        "p\(fraction * 100)=\(Int((percentile(sorted, fraction) * 1e9).rounded()))"
                    }
                    print("\(name) frame latency (ns) over \(sorted.count) frames: " + report.joined(separator: " "))
                }
            }
            box.fixture = nil
        }
    }

    // A burst of 1000 frames per iteration: throughput, and latency including the burst's queueing.
    pipelineBenchmark(
        "Pipeline.simulated4ch", scalingFactor: .kilo, extraMetrics: [.frameLatency, .frameLatencyP99]
    ) { $0.writeAndCollect($1) }
    // One frame per iteration, written only when the previous one has reached the sink: the push-to-sink
    // latency of an isolated frame, as a 250 Hz stream sees it (wall clock = write + hand-off + delivery).
    pipelineBenchmark(
        "Pipeline.simulated4ch.isolatedFrame", scalingFactor: .one, extraMetrics: [.frameLatency]
    ) { $0.roundTrips($1) }
}
