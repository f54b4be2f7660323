// AxonEEG — the engine's state as a value, so another process can resume a stream where this one stopped.

extension EEGEngine {
    /// Everything an ``EEGEngine`` carries from one sample to the next: the window history with its filled-in
    /// marks, the sample and hop schedule, the baseline's Welford statistics, the current indicator period's sums,
    /// and the counters. Restoring it into an engine of the same configuration
    /// (``restore(_:)``) makes that engine produce, sample for sample, what this one would have produced.
    ///
    /// Not kept: the latest spectrum and indicator rows (outputs, rewritten by the next hop) and FFT scratch.
    /// Size: O(channels × window) doubles (4 × 256 for the Brainiac defaults, ≈ 9 kB as JSON).
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Snapshot: Sendable, Codable, Hashable {
        /// Channels and window size the snapshot was taken with.
        public var channelCount: Int
        /// Samples per window.
        public var windowSize: Int
        /// Bands per channel.
        public var bandCount: Int
        /// Channel-major circular history (`channel * windowSize + position`).
        public var history: [Double]
        /// 1 where the history slot holds a filled-in sample.
        public var filledFlags: [UInt8]
        /// The last ingested values.
        public var lastValues: [Double]
        /// Scalar schedule and counters, named.
        public var writePosition: Int
        /// Filled-in samples in the window.
        public var filledInWindow: Int
        /// Samples ingested.
        public var sampleCount: Int
        /// Spectra made.
        public var spectrumCount: Int
        /// Indicators made.
        public var indicatorCount: Int
        /// Analysis failures.
        public var analysisFailures: Int
        /// Frames excluded from baseline and indicators.
        public var excludedFrames: Int
        /// Frames with artifacts.
        public var contaminatedFrames: Int
        /// Unusable (frame, channel) pairs.
        public var unusableChannelWindows: Int
        /// Window restarts.
        public var windowRestarts: Int
        /// Withheld indicators.
        public var withheldIndicators: Int
        /// Sample index of the next spectrum.
        public var nextSpectrumAt: Int
        /// Baseline state.
        public var baselineState: BaselineState
        /// Baseline frames collected.
        public var baselineFrames: Int
        /// A baseline start is pending.
        public var baselineRequested: Bool
        /// First sample of the baseline.
        public var baselineStart: Int
        /// Last sample of the baseline.
        public var baselineLast: Int
        /// Welford means per channel and band.
        public var baselineMean: [Double]
        /// Welford sums of squared deviations per channel and band.
        public var baselineM2: [Double]
        /// Baseline frames per channel.
        public var baselineCounts: [Int]
        /// Indicator-period frames per channel.
        public var periodCounts: [Int]
        /// Indicator-period sums per channel and band.
        public var periodSum: [Double]
        /// Indicator-period frames.
        public var periodFrames: Int
        /// Indicator-period frames left out.
        public var periodExcluded: Int
        /// First sample of the indicator period (`Int.max` before the baseline).
        public var periodStart: Int
        /// Sample index of the next indicator (`Int.max` before the baseline completes).
        public var nextIndicatorAt: Int
    }
}
