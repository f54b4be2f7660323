import AxonEEG
import AxonStreams
import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One minute of EEG-like data (alpha, theta and beta tones plus deterministic noise), frame-major, replayed in a loop
/// by the EEG benchmarks: 4 channels at 250 Hz unless told otherwise.
final class EEGSignal {
    let channels: Int
    let frames: Int
    let values: UnsafeMutableBufferPointer<Double>

    init(channels: Int = 4, rate: Int = 250) {
        self.channels = channels
        frames = rate * 60
        values = .allocate(capacity: frames * channels)
        var state: UInt64 = 12345
        for frame in 0..<frames {
            let t = Double(frame) / Double(rate)
            for channel in 0..<channels {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(state >> 11) * 0x1p-53 - 0.5
                values[frame * channels + channel] =
                    20 * sin(2 * .pi * 10.3 * t + Double(channel)) + 6 * sin(2 * .pi * 5.1 * t)
                    + 4 * sin(2 * .pi * 19.7 * t) + 8 * noise + 1000
            }
        }
    }

    deinit { values.deallocate() }

    /// The frame at a running sample index.
    @inline(__always) func frame(_ index: Int) -> UnsafeBufferPointer<Double> {
        let start = (index % frames) * channels
        return UnsafeBufferPointer(rebasing: values[start..<(start + channels)])
    }
}

/// The engine with a baseline that never completes, so every hop also accumulates baseline statistics. The default is
/// the Brainiac headset (4 channels, 250 Hz, 256-sample windows every 250 samples); other shapes hop once per second
/// with the power-of-two window that holds a second (512 at 500 Hz), as `axon bench` scales them.
final class EngineFixture {
    let engine: EEGEngine
    let signal: EEGSignal
    let hopLength: Int
    var sample = 0

    init(channels: Int = 4, rate: Int = 250, measuresSignalQuality: Bool = true) throws {
        signal = EEGSignal(channels: channels, rate: rate)
        let labels = channels == 4 ? ["T3", "O1", "T4", "O2"] : (1...channels).map { "ch\($0)" }
        let window = rate == 250 ? 256 : SPSCRing<Double>.powerOfTwo(atLeast: rate)
        hopLength = rate
        var configuration = EEGEngine.Configuration(
            sampleRate: Double(rate), channelLabels: labels, windowSize: window, hop: rate, baselineDuration: 1e7)
        configuration.measuresSignalQuality = measuresSignalQuality
        engine = try EEGEngine(configuration)
        engine.startBaseline()
        // Fill the first window up to one hop before its end, so every measured hop ends with one spectrum.
        for _ in 0..<(engine.configuration.windowSize - engine.configuration.hop) {
            engine.ingest(signal.frame(sample), time: Double(sample) / Double(rate))
            sample += 1
        }
    }

    /// One hop: `hop` frames through the engine's row ingestion (the path `EEGProcessor` uses on pipeline blocks).
    /// The signal is a minute long, a multiple of the hop, so a hop never straddles its end.
    @inline(__always) func hop() -> Int {
        var spectra = 0
        var remaining = hopLength
        let channels = signal.channels
        let rate = Double(hopLength)
        while remaining > 0 {
            let start = (sample % signal.frames) * channels
            let available = min(remaining, signal.frames - sample % signal.frames)
            let rows = UnsafeBufferPointer(rebasing: signal.values[start..<(start + available * channels)])
            let first = sample
            let (consumed, events) = engine.ingest(
                rows: rows, stride: channels, valueOffset: 0, frameCount: available,
                time: { Double(first + $0) / rate })
            if events.contains(.spectrum) { spectra += 1 }
            sample += consumed
            remaining -= consumed
        }
        return spectra
    }
}

/// One hour of data per iteration through `StreamPipeline`'s ring into an `EEGProcessor` on the consumer thread.
/// The benchmark thread writes the frames and counts the spectra coming back through the processor's ring; the
/// last spectrum of the hour proves the engine has consumed every frame.
final class ReplayFixture {
    static let framesPerHour = 250 * 3600
    let pipeline: StreamPipeline
    let writer: FrameWriter
    let processor: EEGProcessor
    let signal = EEGSignal()
    private let row: UnsafeMutableBufferPointer<Double>
    private var sample = 0
    private var spectraSeen = 0
    /// Free ring slots known to the producer (only the producer fills them, so the count can only be too low).
    private var free = 0

    init() throws {
        processor = try EEGProcessor(configuration: .init(baselineDuration: 60, indicatorPeriod: 10))
        processor.requestBaseline()
        pipeline = StreamPipeline(
            descriptor: StreamDescriptor(
                name: "Benchmark EEG", contentType: .eeg,
                channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV") },
                nominalRate: 250, format: .float32, sourceID: "benchmark"),
            processors: [processor], sinks: [],
            // As a file replay at full speed is configured (`RecordingReplaySource.pipelineConfiguration()`): the
            // arrival times are virtual, so the timeline runs without a clock estimator.
            configuration: .init(
                ringCapacity: 8192, overflow: .rejectNewest, batchSize: 1024, timeline: .init(clock: nil),
                idle: IdleStrategy(spins: 1_000_000, park: 0)))
        writer = try pipeline.makeWriter()
        row = .allocate(capacity: processor.engine.spectrumLayout.width)
        row.initialize(repeating: 0)
        try pipeline.start()
    }

    deinit { row.deallocate() }

    /// Writes one hour of frames and waits for the spectrum of its last full hop. It writes only into free slots (a
    /// rejected write would count as a lost frame), up to 256 frames per push as `axon replay` does, draining spectra
    /// while the ring is full.
    func replayHour() {
        var remaining = Self.framesPerHour
        while remaining > 0 {
            if free == 0 {
                // Look at the consumer's index only when the room seen last time is used up. Ring full: step aside
                // (spin briefly, then park) so the consumer has the core to itself, as a device thread waiting on
                // its next packet would.
                var idle = IdleStrategy(spins: 16, park: 0.00005)
                free = writer.freeCapacity
                while free == 0 {
                    drainSpectra()
                    idle.idle()
                    free = writer.freeCapacity
                }
            }
            let first = sample
            let offset = first % signal.frames
            let count = min(remaining, free, 256, signal.frames - offset)
            let rows = UnsafeBufferPointer(
                rebasing: signal.values[(offset * signal.channels)..<((offset + count) * signal.channels)])
            writer.write(
                frames: rows, count: count, stride: signal.channels, deviceTime: { Double(first + $0) / 250 },
                counter: { _ in nil }, arrivalTime: { Double(first + $0) / 250 })
            sample += count
            free -= count
            remaining -= count
        }
        // Spectra end at samples 255, 505, …: after `sample` frames there are (sample − 256) / 250 + 1 of them.
        let target = (sample - 256) / 250 + 1
        var idle = IdleStrategy(spins: 16, park: 0.0002)
        while spectraSeen + processor.spectra.droppedCount < target {
            drainSpectra()
            idle.idle()
        }
    }

    private func drainSpectra() {
        while processor.spectra.pop(into: row) == 1 { spectraSeen += 1 }
    }

    func stop() {
        writer.finish()
        pipeline.waitUntilFinished()
    }
}

final class ReplayFixtureBox {
    var fixture: ReplayFixture?
}

func registerEEGBenchmarks() {
    /// One iteration = one device-second through the engine (`EngineFixture.hop`); throughput (hops per second) is
    /// device-seconds per wall-second.
    func hopBenchmark(_ name: String, scalingFactor: BenchmarkScalingFactor, fixture: @escaping () throws -> EngineFixture) {
        Benchmark(
            name,
            configuration: .init(scalingFactor: scalingFactor)
        ) { (benchmark: Benchmark, fixture: EngineFixture) in
            var spectra = 0
            for _ in benchmark.scaledIterations { spectra += fixture.hop() }
            blackHole(spectra)
            blackHole(fixture.engine.withSpectrum { $0.dominantFrequency(channel: 1, band: 1) })
        } setup: {
            try fixture()
        }
    }

    // One hop of one 4-channel device: 250 frames copied into the history, then the window of each channel
    // detrended, windowed and transformed, 3 band peaks and band powers per channel, signal quality, and the
    // baseline accumulation.
    hopBenchmark("EEG.window4ch", scalingFactor: .kilo) { try EngineFixture() }
    // The same hop with signal quality off: the spectral work alone, as `make compare`'s C + FFTW program does it.
    hopBenchmark("EEG.window4ch.spectralOnly", scalingFactor: .kilo) { try EngineFixture(measuresSignalQuality: false) }
    // How the hop's cost grows with the work: 8, 32 and 64 channels at 250 Hz, and 4 channels at 500 Hz (512-point
    // windows, 500 samples per hop).
    for (name, channels, rate) in [
        ("EEG.window8ch", 8, 250), ("EEG.window32ch", 32, 250), ("EEG.window64ch", 64, 250),
        ("EEG.window4ch.500Hz", 4, 500),
    ] {
        hopBenchmark(name, scalingFactor: channels >= 32 ? .one : .kilo) {
            try EngineFixture(channels: channels, rate: rate)
        }
    }

    // One iteration = one hour of 4-channel 250 Hz EEG through the ring and the engine, with the baseline and the
    // indicators running. Device-seconds per wall-second = 3600 × iterations per second.
    let box = ReplayFixtureBox()
    Benchmark(
        "EEG.replay1h",
        configuration: .init(maxDuration: RunLimits.duration(.seconds(4)), maxIterations: RunLimits.iterations(200))
    ) { benchmark in
        let fixture = box.fixture!
        for _ in benchmark.scaledIterations { fixture.replayHour() }
    } setup: {
        box.fixture = try ReplayFixture()
    } teardown: {
        box.fixture?.stop()
        box.fixture = nil
    }
}
