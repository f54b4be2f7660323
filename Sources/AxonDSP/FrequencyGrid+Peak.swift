// AxonDSP — the dominant frequency inside a band, refined between bins.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FrequencyGrid {
    /// The dominant frequency of `spectrum` inside `band`.
    ///
    /// 1. Among the bins whose centres lie in the band (edges inclusive, see ``bins(in:)``), take the bin `k` of
    ///    largest value (the lowest such bin on ties).
    /// 2. Refine it between bins by fitting a parabola through the natural log of `spectrum[k−1]`, `spectrum[k]`,
    ///    `spectrum[k+1]` — the neighbours may lie outside the band — and taking its vertex,
    ///    `k + ½·(a − c)/(a − 2b + c)` bins. On a log scale the main lobe of a Hann or Gaussian-like window is
    ///    close to a parabola, so this is much more accurate than interpolating the power itself. The offset is
    ///    limited to ±1 bin. Refinement is skipped (the bin centre is returned) when `k` is bin 0 or the last bin
    ///    (no neighbour on one side), when a value involved is not positive (its log is undefined), or when the
    ///    three points do not curve downwards (no maximum to find).
    /// 3. Clamp the frequency to `[band.lower, band.upper]`: a peak bin at the band's edge whose stronger
    ///    neighbour lies outside the band reports the edge, never a frequency outside the band.
    ///
    /// This is the strongest bin of the band, which need not be a rhythm of its own: the skirt of a stronger peak
    /// just outside reads as the band's edge. The EEG engine's dominant frequencies use
    /// ``localPeak(of:bins:in:above:)``, which reports no peak in that case.
    ///
    /// Accuracy: for a single sine under a Hann window the method's own bias is at most 0.016 bin (0.016 Hz at
    /// 250 Hz / 256 points); within about 3 bins of DC or Nyquist the mirrored image of the sine adds error (up
    /// to ≈0.06 bin at 2 bins). A single window cannot resolve two sines closer than about 2 bins.
    ///
    /// - Returns: the refined, clamped frequency, the (uninterpolated) value of bin `k`, and `k`.
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `spectrum.count == binCount`, and the errors
    ///   of ``bins(in:)``.
    /// - Complexity: O(bins in the band); no allocation.
    public func peak(of spectrum: UnsafeBufferPointer<Double>, in band: FrequencyBand) throws(DSPError)
        -> SpectralPeak
    {
        guard spectrum.count == binCount else { throw .lengthMismatch(expected: binCount, actual: spectrum.count) }
        return peak(of: spectrum, bins: try bins(in: band), clampedTo: band)
    }

    /// The dominant frequency of `spectrum` among `range` (bins resolved once with ``bins(in:)``), clamped to
    /// `band`: ``peak(of:in:)-(UnsafeBufferPointer<Double>,_)`` without resolving the band on every call, for
    /// loops that look at the same bands window after window.
    ///
    /// - Precondition: `spectrum.count == binCount` and `range` lies inside `0..<binCount`.
    /// - Complexity: O(bins in the range); no allocation.
    public func peak(of spectrum: UnsafeBufferPointer<Double>, bins range: ClosedRange<Int>, clampedTo band: FrequencyBand)
        -> SpectralPeak
    {
        precondition(spectrum.count == binCount && range.lowerBound >= 0 && range.upperBound < binCount)
        var best = range.lowerBound
        for k in range where spectrum[k] > spectrum[best] { best = k }
        let frequency = min(band.upper, max(band.lower, refinedPosition(of: spectrum, at: best) * binWidth))
        return SpectralPeak(frequency: frequency, power: spectrum[best], bin: best)
    }

    /// The vertex of the parabola through the natural log of `spectrum[k−1]`, `spectrum[k]`, `spectrum[k+1]`, in
    /// bins: `k + ½·(a − c)/(a − 2b + c)`, the offset limited to ±1 bin; `k` itself when `k` is the first or last
    /// bin, when a value involved is not positive, or when the three points do not curve downwards.
    ///
    /// - Precondition: `spectrum.count == binCount` and `k` lies inside `0..<binCount`.
    /// - Complexity: O(1); no allocation.
    @inline(__always)
    public func refinedPosition(of spectrum: UnsafeBufferPointer<Double>, at k: Int) -> Double {
        guard k > 0, k < binCount - 1 else { return Double(k) }
        let left = spectrum[k - 1]
        let centre = spectrum[k]
        let right = spectrum[k + 1]
        guard left > 0, centre > 0, right > 0 else { return Double(k) }
        // The log values relative to the centre's: ln a − ln b and ln c − ln b, so two logs (one pair) serve for
        // the parabola's curvature (a − 2b + c) and slope (a − c).
        let logs = fastLog(SIMD2(left, right) / centre)
        let a = logs[0]
        let c = logs[1]
        let curvature = a + c
        guard curvature < 0 else { return Double(k) }
        return Double(k) + min(1, max(-1, 0.5 * (a - c) / curvature))
    }

    /// The dominant frequency of `spectrum` inside `band`; see ``peak(of:in:)-(UnsafeBufferPointer<Double>,_)``.
    public func peak(of spectrum: [Double], in band: FrequencyBand) throws(DSPError) -> SpectralPeak {
        try spectrum.withUnsafeBufferPointer { (buffer) throws(DSPError) in try peak(of: buffer, in: band) }
    }
}
