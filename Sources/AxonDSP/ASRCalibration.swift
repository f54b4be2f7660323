// AxonDSP — the result of ASR calibration as a value: what a reconstructor needs to clean a stream.

/// What artifact subspace reconstruction learns from clean data (see ``ASRCalibrator`` for how): the mixing
/// matrix `M = C^½` and the threshold operator `T = diag(τ) · Vᵀ`, with the covariance, its eigenvectors and the
/// per-component RMS thresholds for inspection. All matrices are `channelCount²` values, column-major.
///
/// A calibration made once (from a clean recording, or by a stage at the start of a session) can be handed to
/// any number of ``ASRReconstructor``s for streams with the same channels, in the same order, in the same unit.
///
/// Threading: a plain value, `Sendable`.
///
///     let calibration = try ASRCalibration(frames: cleanFrames, configuration: .init(sampleRate: 250, channelCount: 8))
///     let reconstructor = try ASRReconstructor(configuration: configuration, calibration: calibration)
public struct ASRCalibration: Sendable, Hashable {
    /// Channels per frame.
    public let channelCount: Int
    /// Frames the calibration was computed from.
    public let frameCount: Int
    /// The robust covariance `C` of the calibration data, in the data's unit squared.
    public let covariance: [Double]
    /// The mixing matrix `M = C^½`.
    public let mixing: [Double]
    /// The eigenvectors `V` of `C`: column `c` is component `c`, by ascending variance.
    public let componentDirections: [Double]
    /// The RMS threshold `τ_c` of each component (robust mean + cutoff · robust standard deviation of its window
    /// RMS values), in the data's unit.
    public let componentThresholds: [Double]
    /// The threshold operator `T = diag(τ) · Vᵀ`.
    public let thresholdMatrix: [Double]

    /// Creates a calibration from its parts (for one saved earlier); the arrays must hold `channelCount²` values
    /// (`channelCount` for the thresholds).
    ///
    /// - Precondition: the array lengths match `channelCount`.
    public init(
        channelCount: Int, frameCount: Int, covariance: [Double], mixing: [Double], componentDirections: [Double],
        componentThresholds: [Double], thresholdMatrix: [Double]
    ) {
        let square = channelCount * channelCount
        precondition(
            covariance.count == square && mixing.count == square && componentDirections.count == square
                && thresholdMatrix.count == square && componentThresholds.count == channelCount,
            "calibration arrays must hold channelCount² (thresholds: channelCount) values")
        self.channelCount = channelCount
        self.frameCount = frameCount
        self.covariance = covariance
        self.mixing = mixing
        self.componentDirections = componentDirections
        self.componentThresholds = componentThresholds
        self.thresholdMatrix = thresholdMatrix
    }

    /// Calibrates on clean, high-passed data: frame-major values (`frames[frame · channels + channel]`), at least
    /// four windows long.
    ///
    /// - Throws: the errors of ``ASRCalibrator/init(configuration:capacity:)`` and ``ASRCalibrator/calibrate(_:)``.
    /// - Complexity: O(frames · channels²); allocates its working memory (not for the real-time path).
    public init(frames: [Double], configuration: ASRConfiguration) throws(DSPError) {
        try configuration.validate()
        let calibrator = try ASRCalibrator(
            configuration: configuration,
            capacity: max(frames.count / configuration.channelCount, 4 * configuration.windowLength))
        try frames.withUnsafeBufferPointer { (buffer) throws(DSPError) in try calibrator.calibrate(buffer) }
        self = calibrator.makeCalibration()
    }
}
