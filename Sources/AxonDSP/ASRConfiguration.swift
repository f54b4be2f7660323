// AxonDSP — the parameters of artifact subspace reconstruction, with the defaults of the published method.

/// The parameters of artifact subspace reconstruction (ASR), shared by ``ASRCalibrator`` and ``ASRReconstructor``.
///
/// Lengths are in frames (one value per channel). The defaults follow the published method: 0.5 s windows, a
/// rejection cutoff of 5 standard deviations, at most 66 % of the components removed per window. The step is an
/// eighth of the window and the look-ahead half of it, so each reconstruction is decided on a window centred on
/// the samples it is applied to. See `docs/asr.md`.
///
/// Threading: a plain value, `Sendable`.
public struct ASRConfiguration: Sendable, Hashable {
    /// Frames per second.
    public var sampleRate: Double
    /// Channels per frame (at least 2: ASR works on the spatial covariance).
    public var channelCount: Int
    /// Standard deviations above the clean data's mean window RMS at which a component counts as an artifact.
    public var cutoff: Double
    /// Frames in the sliding covariance window and in the calibration's RMS windows (default: 0.5 s).
    public var windowLength: Int
    /// Frames between two reconstruction matrices, also the length of the raised-cosine blend between them
    /// (default: an eighth of the window).
    public var stepLength: Int
    /// Frames by which the covariance window runs ahead of the samples being reconstructed (default: half the
    /// window, which centres the window on them).
    public var lookahead: Int
    /// The largest fraction of the components that one window may remove (default 0.66); the weakest
    /// `channelCount − round(fraction · channelCount)` components are always kept.
    public var maxRemovedFraction: Double
    /// Overlap of consecutive calibration RMS windows, as a fraction of their length (default 0.66).
    public var calibrationWindowOverlap: Double
    /// Frames per block whose covariance enters the geometric median during calibration (default 10).
    public var covarianceBlockLength: Int

    /// Creates a configuration; `nil` lengths take the defaults described on each property.
    ///
    /// - Parameters:
    ///   - sampleRate: frames per second.
    ///   - channelCount: channels per frame.
    ///   - cutoff: rejection threshold in standard deviations (default 5).
    ///   - windowDuration: the sliding window in seconds (default 0.5), rounded to whole frames.
    ///   - stepLength: frames between reconstruction matrices.
    ///   - lookahead: frames the window runs ahead of the reconstructed samples.
    ///   - maxRemovedFraction: the largest fraction of components removed per window.
    ///   - calibrationWindowOverlap: overlap of the calibration's RMS windows.
    ///   - covarianceBlockLength: frames per block of the calibration's robust covariance.
    public init(
        sampleRate: Double, channelCount: Int, cutoff: Double = 5, windowDuration: Double = 0.5,
        stepLength: Int? = nil, lookahead: Int? = nil, maxRemovedFraction: Double = 0.66,
        calibrationWindowOverlap: Double = 0.66, covarianceBlockLength: Int = 10
    ) {
        let window = sampleRate.isFinite && windowDuration.isFinite ? Int((windowDuration * sampleRate).rounded()) : 0
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.cutoff = cutoff
        self.windowLength = window
        self.stepLength = stepLength ?? max(1, Int((Double(window) / 8).rounded()))
        self.lookahead = lookahead ?? window / 2
        self.maxRemovedFraction = maxRemovedFraction
        self.calibrationWindowOverlap = calibrationWindowOverlap
        self.covarianceBlockLength = covarianceBlockLength
    }

    /// The fixed delay of the reconstructed signal, in frames: the value written into frame `n` is the cleaned
    /// value of frame `n − delay`. It is `lookahead + stepLength − 1` (77 frames, 308 ms, at 250 Hz with the
    /// defaults).
    public var delay: Int { lookahead + stepLength - 1 }

    /// The largest number of components one window may remove.
    public var maxRemovedComponents: Int {
        min(channelCount - 1, max(0, Int((maxRemovedFraction * Double(channelCount)).rounded())))
    }

    /// Checks every parameter.
    ///
    /// - Throws: ``DSPError/invalidSampleRate(_:)``, ``DSPError/invalidSize(size:minimum:)`` (channels below 2,
    ///   window below 4 frames), or ``DSPError/invalidParameter(name:value:requirement:)`` naming the parameter.
    public func validate() throws(DSPError) {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard channelCount >= 2, channelCount <= 1024 else { throw .invalidSize(size: channelCount, minimum: 2) }
        guard windowLength >= 4, windowLength <= 1 << 20 else { throw .invalidSize(size: windowLength, minimum: 4) }
        guard cutoff.isFinite, cutoff > 0 else {
            throw .invalidParameter(name: "cutoff", value: cutoff, requirement: "it must be finite and positive")
        }
        guard stepLength >= 1, stepLength <= windowLength else {
            throw .invalidParameter(
                name: "step length", value: Double(stepLength), requirement: "it must lie in 1...window length")
        }
        guard lookahead >= 0, lookahead <= windowLength else {
            throw .invalidParameter(
                name: "look-ahead", value: Double(lookahead), requirement: "it must lie in 0...window length")
        }
        guard maxRemovedFraction.isFinite, maxRemovedFraction >= 0, maxRemovedFraction <= 1 else {
            throw .invalidParameter(
                name: "largest removed fraction", value: maxRemovedFraction, requirement: "it must lie in 0...1")
        }
        guard calibrationWindowOverlap.isFinite, calibrationWindowOverlap >= 0, calibrationWindowOverlap < 1 else {
            throw .invalidParameter(
                name: "calibration window overlap", value: calibrationWindowOverlap,
                requirement: "it must lie in [0, 1)")
        }
        guard covarianceBlockLength >= 1, covarianceBlockLength <= windowLength else {
            throw .invalidParameter(
                name: "covariance block length", value: Double(covarianceBlockLength),
                requirement: "it must lie in 1...window length")
        }
    }

    /// Frames between the starts of consecutive calibration RMS windows.
    var calibrationWindowStep: Int {
        max(1, Int((Double(windowLength) * (1 - calibrationWindowOverlap)).rounded()))
    }
}
