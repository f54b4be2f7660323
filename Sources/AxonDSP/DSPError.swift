// AxonDSP — typed errors raised at the DSP layer's boundaries (sizes, bands, FFTW and LAPACK calls).

/// An error raised by AxonDSP: a bad argument (size, sample rate, band) or a failed C call (FFTW, LAPACK).
///
/// Every case carries the values that were wrong, and ``description`` turns them into a sentence a person can
/// act on. Errors are only built on failure paths, so the allocation-free hot paths stay allocation-free.
///
/// Threading: a plain value, `Sendable`.
public enum DSPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A transform, window or hop length that cannot be used (it must be at least `minimum` and fit in `Int32`).
    case invalidSize(size: Int, minimum: Int)
    /// A buffer whose length differs from the length the object was built for.
    case lengthMismatch(expected: Int, actual: Int)
    /// A sample rate that is not a finite, positive number of hertz.
    case invalidSampleRate(Double)
    /// FFTW returned a null plan for a real-to-complex transform of `size` points.
    case plannerFailed(size: Int)
    /// An aligned allocation through FFTW (`fftw_alloc_real` / `fftw_alloc_complex`) returned null.
    case allocationFailed(elements: Int)
    /// A LAPACK routine returned a non-zero `info` (negative: argument `-info` was illegal; positive: the routine
    /// could not finish on this matrix — an eigen- or singular-value iteration that did not converge, or a
    /// rank-deficient factorisation — at the position `info` names).
    case lapackFailed(routine: String, info: Int32)
    /// A parameter outside its valid range: `name` is the parameter, `value` what was given, `requirement` the rule.
    case invalidParameter(name: String, value: Double, requirement: String)
    /// Too little data for an estimate: `count` frames given, at least `minimum` needed.
    case insufficientData(count: Int, minimum: Int)
    /// Input data with `count` values that are NaN or infinite, where only finite values can be used.
    case nonFiniteData(count: Int)
    /// A band whose edges are not finite or whose lower edge is above its upper edge.
    case invalidBand(lower: Double, upper: Double)
    /// A band that reaches outside `[0, nyquist]` hertz.
    case bandOutOfRange(lower: Double, upper: Double, nyquist: Double)
    /// A band narrower than the bin spacing that contains no bin centre, so it has no power and no peak.
    case emptyBand(lower: Double, upper: Double, binWidth: Double)

    /// A human-readable explanation of the error, naming the offending values.
    public var description: String {
        switch self {
        case .invalidSize(let size, let minimum):
            return "invalid size \(size): the length must be at least \(minimum) (and at most 2³¹ − 1)"
        case .lengthMismatch(let expected, let actual):
            return "buffer has \(actual) samples but this object was built for \(expected)"
        case .invalidSampleRate(let rate):
            return "invalid sample rate \(rate) Hz: it must be finite and positive"
        case .plannerFailed(let size):
            return "FFTW could not plan a real-to-complex transform of \(size) points"
        case .allocationFailed(let elements):
            return "FFTW could not allocate an aligned buffer of \(elements) elements"
        case .lapackFailed(let routine, let info):
            if info < 0 {
                return "LAPACK \(routine) rejected argument \(-info) (info = \(info))"
            }
            return "LAPACK \(routine) failed (info = \(info)): it did not converge or the matrix is singular"
        case .invalidParameter(let name, let value, let requirement):
            return "invalid \(name) \(value): \(requirement)"
        case .insufficientData(let count, let minimum):
            return "too little data: \(count) frames given, at least \(minimum) needed"
        case .nonFiniteData(let count):
            return "the data holds \(count) NaN or infinite values; only finite values can be used"
        case .invalidBand(let lower, let upper):
            return "invalid band [\(lower), \(upper)] Hz: edges must be finite with lower ≤ upper"
        case .bandOutOfRange(let lower, let upper, let nyquist):
            return "band [\(lower), \(upper)] Hz lies outside [0, \(nyquist)] Hz (0 to half the sample rate)"
        case .emptyBand(let lower, let upper, let binWidth):
            return "band [\(lower), \(upper)] Hz contains no bin centre (bins are \(binWidth) Hz apart)"
        }
    }
}
