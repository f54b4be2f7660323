// AxonBench — every figure one `axon bench` run measures, as one JSON-encodable value.

/// The figures of one benchmark run for one workload. Times are medians of repetitions; allocation counts are
/// process-wide over a steady-state stretch after the timing (`nil`, absent from JSON, when counting is off).
///
/// The JSON keys are the property names; the headline ones are ``fftNanoseconds``, ``hopNanoseconds``,
/// ``deviceSecondsPerSecond``, ``ringItemsPerSecond``, ``latencyP99Microseconds`` and ``allocationsPerHop``.
///
/// Threading: a plain value, `Sendable`.
public struct BenchReport: Codable, Sendable, Hashable {
    /// Channels of the simulated device.
    public var channels: Int
    /// Its sample rate, Hz.
    public var sampleRate: Int
    /// Samples per analysis window (the FFT length).
    public var windowSize: Int
    /// Samples per hop (one second).
    public var hop: Int

    /// Points of the measured FFT (`windowSize`).
    public var fftSize: Int
    /// Median nanoseconds per real-to-complex FFT of one window.
    public var fftNanoseconds: Double
    /// Allocations per FFT.
    public var allocationsPerFFT: Double?

    /// Median nanoseconds per engine hop (one device-second: frames in, one spectrum per channel out).
    public var hopNanoseconds: Double
    /// Device-seconds per wall-second of the engine alone on one core: 10⁹ ÷ ``hopNanoseconds``.
    public var engineDeviceSecondsPerSecond: Double
    /// Allocations per engine hop in the steady state.
    public var allocationsPerHop: Double?
    /// Dominant frequency per band (Hz; 3–7, 7–13, 14–24 Hz) of the last channel at the tenth hop, a check that the
    /// hop did the real work: `make compare`'s peers print the same numbers for the same signal.
    public var tenthHopDominantFrequencies: [Double?]
    /// Median nanoseconds per engine hop with signal quality off: the spectral work alone (copy, mean, taper, FFT,
    /// power, band peaks and powers, baseline), what `make compare`'s C + FFTW program does.
    public var spectralHopNanoseconds: Double
    /// Allocations per spectral-only hop in the steady state.
    public var allocationsPerSpectralHop: Double?

    /// Seconds of device data per replay (3600 = one hour).
    public var replayDeviceSeconds: Int
    /// Median milliseconds per replay through ring, timeline and engine (with baseline and indicators).
    public var replayMilliseconds: Double
    /// Device-seconds per wall-second through ring and engine: the engine's consumer thread is one core.
    public var deviceSecondsPerSecond: Double
    /// Devices of this shape one core serves in real time (= ``deviceSecondsPerSecond``).
    public var devicesPerCore: Double
    /// What the pipeline keeps of the engine's speed: ``deviceSecondsPerSecond`` (ring, timeline and engine with
    /// baseline and indicators) ÷ ``engineDeviceSecondsPerSecond`` (the engine's hop alone), measured in one run.
    public var ringEngineOverEngine: Double
    /// Allocations per hop during a replay, producer and consumer threads counted.
    public var allocationsPerReplayHop: Double?

    /// Frames per second through the ring between two threads in batches of ``ringBatch``.
    public var ringItemsPerSecond: Double
    /// Frames per push and pop in the batched ring measurement.
    public var ringBatch: Int
    /// Frames per second through the ring one frame per push and pop.
    public var ringSingleItemsPerSecond: Double
    /// Allocations per ring batch in the steady state, both threads counted.
    public var allocationsPerRingBatch: Double?
    /// Allocations per single-frame push and pop.
    public var allocationsPerRingItem: Double?

    /// Ring entry of a window's last sample to its spectrum popped by the application, median, µs (the pipeline's
    /// default consumer idle strategy, as sessions run: the consumer blocks and the producer wakes it).
    public var latencyP50Microseconds: Double
    /// The same, 99th percentile.
    public var latencyP99Microseconds: Double
    /// The same, maximum.
    public var latencyMaxMicroseconds: Double
    /// Hops the latency percentiles are taken over.
    public var latencyHops: Int
    /// The session default's latency with the producer and the consumer pinned to one CPU, median, µs: a wake-up
    /// without an inter-processor interrupt (``AxonStreams/RealTimeOptions/cpus``); `nil` when pinning is refused.
    public var pinnedLatencyP50Microseconds: Double?
    /// The pinned run's 99th percentile, µs.
    public var pinnedLatencyP99Microseconds: Double?
    /// The pinned run's maximum, µs.
    public var pinnedLatencyMaxMicroseconds: Double?
    /// The same latency with a consumer that naps 0.5 ms at a time (``AxonStreams/IdleStrategy/napping``, the
    /// default before wake-ups), 99th percentile, µs.
    public var nappingLatencyP99Microseconds: Double
    /// The napping consumer's maximum, µs.
    public var nappingLatencyMaxMicroseconds: Double
    /// The same latency with a consumer that polls instead of sleeping, median, µs: processing and hand-offs only.
    public var pollingLatencyP50Microseconds: Double
    /// The polling consumer's 99th percentile, µs.
    public var pollingLatencyP99Microseconds: Double
    /// The polling consumer's maximum, µs.
    public var pollingLatencyMaxMicroseconds: Double

    /// Latency hops (every idle strategy) whose spectrum was not the one of the sample just written; 0 when
    /// every latency is attributed to the right window.
    public var latencyUnmatchedSpectra: Int

    /// The pipeline consumer thread's CPU time while one device streams in real time (frames one by one at its
    /// rate, the engine running, the default idle strategy), percent of one core.
    public var consumerCPUPercent: Double

    /// Whether allocations were counted.
    public var allocationCounting: Bool
    /// Wall-clock seconds the whole run took, set-up included.
    public var elapsedSeconds: Double
}
