import AxonEEG
import AxonStreams
import Benchmark

/// A running 4-channel 250 Hz pipeline with an `EEGProcessor`, fed one hop at a time by the benchmark thread, which
/// also pops the spectra: the end-to-end latency from a window's last sample entering the ring to its spectrum
/// leaving the engine (popped from the processor's spectra ring), as `axon bench` measures it.
///
/// The consumer polls (no naps), so the figure is processing and the two hand-offs; `axon bench` also reports it
/// with the sessions' default idle strategy. Threading: the benchmark thread is the ring's producer and the
/// spectra ring's consumer; the pipeline's thread runs the engine.
final class LatencyFixture {
    let pipeline: StreamPipeline
    let writer: FrameWriter
    let processor: EEGProcessor
    let signal = EEGSignal()
    let ringCapacity = 4096
    private let row: UnsafeMutableBufferPointer<Double>
    /// One iteration's latencies in seconds (one per hop).
    let latencies: UnsafeMutableBufferPointer<Double>
    private var sample = 0

    init(hopsPerIteration: Int) throws {
        processor = try EEGProcessor(configuration: .init())
        processor.requestBaseline()
        pipeline = StreamPipeline(
            descriptor: StreamDescriptor(
                name: "Benchmark EEG", contentType: .eeg,
                channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV") },
                nominalRate: 250, format: .float32, sourceID: "benchmark"),
            processors: [processor], sinks: [],
            configuration: .init(ringCapacity: ringCapacity, idle: IdleStrategy(spins: 1_000_000, park: 0)))
        writer = try pipeline.makeWriter()
        row = .allocate(capacity: processor.engine.spectrumLayout.width)
        row.initialize(repeating: 0)
        latencies = .allocate(capacity: hopsPerIteration)
        latencies.initialize(repeating: 0)
        try pipeline.start()
        // The first window and the consumer's first-use costs before any measurement.
        hops(1)
    }

    deinit {
        row.deallocate()
        latencies.deallocate()
    }

    /// `count` hops: each writes all frames of the window but its last, waits until the consumer has taken them,
    /// stamps and writes the last one, and spins until its spectrum comes out.
    func hops(_ count: Int) {
        let engine = processor.engine.configuration
        for index in 0..<count {
            let leading = (sample == 0 ? engine.windowSize : engine.hop) - 1
            for _ in 0..<leading {
                writer.write(signal.frame(sample))
                sample += 1
            }
            while writer.freeCapacity < ringCapacity {}
            let start = HostClock.now()
            writer.write(signal.frame(sample), arrivalTime: start)
            sample += 1
            while processor.spectra.pop(into: row) == 0 {}
            latencies[min(index, latencies.count - 1)] = HostClock.now() - start
        }
    }

    func stop() {
        writer.finish()
        pipeline.waitUntilFinished()
    }
}

final class LatencyFixtureBox {
    var fixture: LatencyFixture?
}

extension BenchmarkMetric {
    /// Ring entry of a window's last sample to its spectrum out of the engine, one sample per hop.
    static var spectrumLatency: BenchmarkMetric {
        .custom("Spectrum latency (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    }
}

func registerLatencyBenchmarks() {
    let hopsPerIteration = 100
    let box = LatencyFixtureBox()
    // One iteration = 100 hops of one 4-channel device, each timed from its last sample's write to its spectrum.
    Benchmark(
        "EEG.latency4ch",
        configuration: .init(
            metrics: Benchmark.defaultConfiguration.metrics + [.spectrumLatency], scalingFactor: .one,
            maxDuration: RunLimits.duration(.seconds(2)), maxIterations: RunLimits.iterations(200))
    ) { benchmark in
        let fixture = box.fixture!
        fixture.hops(hopsPerIteration)
        benchmark.stopMeasurement()
        for latency in fixture.latencies {
            benchmark.measurement(.spectrumLatency, Int((latency * 1e9).rounded()))
        }
    } setup: {
        box.fixture = try LatencyFixture(hopsPerIteration: hopsPerIteration)
    } teardown: {
        box.fixture?.stop()
        box.fixture = nil
    }
}
