// AxonDSP — tapering windows with precomputed coefficients and the gains needed to scale spectra.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shape of a tapering window. All shapes are the *periodic* (DFT-even) form, `w[n]` for `n = 0..<N` with
/// period `N`, which is the right form for spectral analysis (scipy's `get_window(..., fftbins=True)`).
///
/// Threading: a plain value, `Sendable`.
public enum WindowKind: String, Sendable, CaseIterable {
    /// Hann, `0.5 − 0.5·cos(2πn/N)`. Coherent gain 0.5, equivalent noise bandwidth 1.5 bins. The default.
    case hann
    /// Hamming, `0.54 − 0.46·cos(2πn/N)`. Coherent gain 0.54, equivalent noise bandwidth ≈1.363 bins.
    case hamming
    /// Blackman, `0.42 − 0.5·cos(2πn/N) + 0.08·cos(4πn/N)`. Coherent gain 0.42, ENBW ≈1.727 bins.
    case blackman
    /// Rectangular (no taper), `1`. Coherent gain 1, equivalent noise bandwidth 1 bin.
    case rectangular

    /// The coefficient `w[n]` of a periodic window of length `length`.
    func coefficient(_ n: Int, length: Int) -> Double {
        let phase = 2 * Double.pi * Double(n) / Double(length)
        switch self {
        case .hann: return 0.5 - 0.5 * cos(phase)
        case .hamming: return 0.54 - 0.46 * cos(phase)
        case .blackman: return 0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase)
        case .rectangular: return 1
        }
    }
}

/// A window of a fixed length with its coefficients computed once, plus the sums that scale spectra.
///
/// For a window `w` of length `N`, with `S1 = Σ w[n]` and `S2 = Σ w[n]²`:
/// - ``coherentGain`` `= S1 / N` is the amplitude factor a windowed sine at a bin centre is multiplied by; divide
///   amplitude spectra by it (AxonDSP's ``SpectrumScaling/power`` does, via `S1²`).
/// - ``powerGain`` `= S2 / N` is the factor the mean square of broadband noise is multiplied by; density spectra
///   divide by it (``SpectrumScaling/density`` uses `fs · S2`).
/// - ``equivalentNoiseBandwidth`` `= N · S2 / S1²`, in bins, converts between the two scalings.
///
/// Threading: an immutable value, `Sendable`; share it freely.
///
///     let hann = try Window(.hann, length: 256)
///     hann.coherentGain               // 0.5
///     try hann.apply(to: buffer)      // buffer.count == 256, multiplied in place
public struct Window: Sendable, Equatable {
    /// The window's shape.
    public let kind: WindowKind
    /// The number of coefficients.
    public let length: Int
    /// The precomputed coefficients `w[0..<length]`.
    public let coefficients: [Double]
    /// `S1 = Σ w[n]`.
    public let sum: Double
    /// `S2 = Σ w[n]²`.
    public let sumOfSquares: Double

    /// Computes the coefficients and sums of a `kind` window of `length` points.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` if `length < 1`.
    /// - Complexity: O(length), one allocation. Do it once, at set-up.
    public init(_ kind: WindowKind, length: Int) throws(DSPError) {
        guard length >= 1 else { throw .invalidSize(size: length, minimum: 1) }
        let values = (0..<length).map { kind.coefficient($0, length: length) }
        self.kind = kind
        self.length = length
        self.coefficients = values
        self.sum = values.reduce(0, +)
        self.sumOfSquares = values.reduce(0) { $0 + $1 * $1 }
    }

    /// `S1 / N`: the mean of the coefficients, the amplitude gain for a sine at a bin centre.
    public var coherentGain: Double { sum / Double(length) }

    /// `S2 / N`: the mean square of the coefficients, the gain applied to the power of broadband noise.
    public var powerGain: Double { sumOfSquares / Double(length) }

    /// `N · S2 / S1²`: the equivalent noise bandwidth in bins (Hann 1.5, rectangular 1).
    public var equivalentNoiseBandwidth: Double { Double(length) * sumOfSquares / (sum * sum) }

    /// Multiplies `samples` element-wise by the coefficients, in place.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `samples.count == length`.
    /// - Complexity: O(length); no allocation. Any thread (the window is immutable).
    public func apply(to samples: UnsafeMutableBufferPointer<Double>) throws(DSPError) {
        guard samples.count == length else { throw .lengthMismatch(expected: length, actual: samples.count) }
        coefficients.withUnsafeBufferPointer { w in
            for n in 0..<length { samples[n] *= w[n] }
        }
    }
}
