// AxonDSP — which frequency each bin of a one-sided spectrum stands for, and which bins make up a band.

/// The bin frequencies of a one-sided spectrum of an `fftSize`-point transform at `sampleRate` hertz:
/// bin `k`, for `k = 0..<binCount` with `binCount = fftSize / 2 + 1`, is centred on `k · sampleRate / fftSize` Hz.
///
/// The grid maps bands to bin ranges and reduces a spectrum over a band (``bandSum(of:in:)-(UnsafeBufferPointer<Double>,_)``,
/// ``peak(of:in:)-(UnsafeBufferPointer<Double>,_)``). It works on any spectrum with ``binCount`` values: one window's, or a Welch average.
///
/// Threading: an immutable value, `Sendable`. All methods are allocation-free and O(bins in the band).
///
///     let grid = try FrequencyGrid(sampleRate: 250, fftSize: 256)
///     grid.binWidth                                        // 0.9765625 Hz
///     let peak = try grid.peak(of: spectrum, in: FrequencyBand(7, 13))
public struct FrequencyGrid: Sendable, Hashable {
    /// The sample rate in hertz.
    public let sampleRate: Double
    /// The transform length in samples.
    public let fftSize: Int

    /// Creates the grid of an `fftSize`-point transform at `sampleRate` hertz.
    ///
    /// - Throws: ``DSPError/invalidSampleRate(_:)`` unless the rate is finite and positive;
    ///   ``DSPError/invalidSize(size:minimum:)`` if `fftSize < 2`.
    public init(sampleRate: Double, fftSize: Int) throws(DSPError) {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard fftSize >= 2 else { throw .invalidSize(size: fftSize, minimum: 2) }
        self.sampleRate = sampleRate
        self.fftSize = fftSize
    }

    /// The number of bins in a one-sided spectrum, `fftSize / 2 + 1`.
    public var binCount: Int { fftSize / 2 + 1 }

    /// The spacing between bin centres, `sampleRate / fftSize` hertz.
    public var binWidth: Double { sampleRate / Double(fftSize) }

    /// Half the sample rate, the highest frequency the spectrum represents.
    public var nyquist: Double { sampleRate / 2 }

    /// The centre frequency of bin `k`, `k · sampleRate / fftSize` hertz.
    public func frequency(ofBin k: Int) -> Double { Double(k) * sampleRate / Double(fftSize) }

    /// The bins whose centres lie in `band`, edges inclusive (to within 10⁻⁹ of a bin width, so that an edge
    /// computed as `k · fs / N` selects bin `k` despite rounding).
    ///
    /// - Throws: ``DSPError/bandOutOfRange(lower:upper:nyquist:)`` if the band reaches below 0 Hz or above
    ///   ``nyquist``; ``DSPError/emptyBand(lower:upper:binWidth:)`` if no bin centre lies inside it.
    /// - Complexity: O(1).
    public func bins(in band: FrequencyBand) throws(DSPError) -> ClosedRange<Int> {
        guard band.lower >= 0, band.upper <= nyquist else {
            throw .bandOutOfRange(lower: band.lower, upper: band.upper, nyquist: nyquist)
        }
        let tolerance = 1e-9
        let first = max(0, Int((band.lower / binWidth - tolerance).rounded(.up)))
        let last = min(binCount - 1, Int((band.upper / binWidth + tolerance).rounded(.down)))
        guard first <= last else {
            throw .emptyBand(lower: band.lower, upper: band.upper, binWidth: binWidth)
        }
        return first...last
    }

    /// The sum of `spectrum[k]` over the bins whose centres lie in `band` (edges inclusive, see ``bins(in:)``).
    ///
    /// This is the literal bin sum, in the spectrum's unit. To turn it into the signal's mean-square power in the
    /// band (µV²), multiply by ``binWidth`` for a ``SpectrumScaling/density`` spectrum, or divide by the window's
    /// ``Window/equivalentNoiseBandwidth`` for a ``SpectrumScaling/power`` spectrum;
    /// ``SpectrumAnalyzer/bandPower(in:)`` does that for you.
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `spectrum.count == binCount`, and the errors
    ///   of ``bins(in:)``.
    /// - Complexity: O(bins in the band); no allocation.
    public func bandSum(of spectrum: UnsafeBufferPointer<Double>, in band: FrequencyBand) throws(DSPError) -> Double {
        guard spectrum.count == binCount else { throw .lengthMismatch(expected: binCount, actual: spectrum.count) }
        var total = 0.0
        for k in try bins(in: band) { total += spectrum[k] }
        return total
    }

    /// The sum of `spectrum[k]` over the bins in `band`; see ``bandSum(of:in:)-(UnsafeBufferPointer<Double>,_)``.
    public func bandSum(of spectrum: [Double], in band: FrequencyBand) throws(DSPError) -> Double {
        try spectrum.withUnsafeBufferPointer { (buffer) throws(DSPError) in try bandSum(of: buffer, in: band) }
    }
}
