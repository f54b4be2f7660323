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

    /// Creates options; the defaults are the Brainiac headset, a 30 s budget and one-hour replays.
    public init(workload: BenchWorkload, seconds: Double = 30, replaySeconds: Int = 3600) {
        precondition(seconds > 0 && replaySeconds >= 2)
        self.workload = workload
        self.seconds = seconds
        self.replaySeconds = replaySeconds
    }
}
