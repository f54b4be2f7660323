// AxonBench — what one benchmark run measures and how long it may take.

/// The settings of a benchmark run.
///
/// Threading: a plain value, `Sendable`.
public struct BenchOptions: Sendable, Hashable {
    /// The simulated device.
    public var workload: BenchWorkload
    /// Seconds of timed repetitions, shared out among the measurements (set-up comes on top: FFTW plans, thread
    /// starts, about a second in all).
    public var seconds: Double
    /// Seconds of device data per replay (3600: one hour).
    public var replaySeconds: Int
    /// Hops the session default's latency is measured over at least, however small the budget: a p99 needs many
    /// (2000, about 4 s; more when the budget's share allows).
    public var minimumLatencyHops: Int

    /// Creates options; the defaults are the Brainiac headset, a 30 s budget, one-hour replays and 2000 latency hops.
    public init(workload: BenchWorkload, seconds: Double = 30, replaySeconds: Int = 3600, minimumLatencyHops: Int = 2000) {
        precondition(seconds > 0 && replaySeconds >= 2 && minimumLatencyHops >= 1)
        self.workload = workload
        self.seconds = seconds
        self.replaySeconds = replaySeconds
        self.minimumLatencyHops = minimumLatencyHops
    }
}
