// AxonDSP — the dominant frequency of a band only when the band holds a peak of its own.


extension FrequencyGrid {
    /// The dominant frequency of `spectrum` inside `band` when the band holds a local maximum, else `nil` (no
    /// peak).
    ///
    /// 1. Among the bins whose centres lie in the band (edges inclusive, see ``bins(in:)``), keep those that are
    ///    local maxima of the whole spectrum: greater than the bin below and at least the bin above, whether or not
    ///    those neighbours lie in the band. A band whose largest bin is only the skirt of a stronger peak outside it
    ///    (the leakage of an 8 Hz alpha rhythm into 3–7 Hz) has no such bin and reports no peak, where
    ///    ``peak(of:bins:clampedTo:)`` would report the band's edge.
    /// 2. Refine each between bins as ``peak(of:bins:clampedTo:)`` does (log-parabolic vertex,
    ///    ``refinedPosition(of:at:)``) and keep those whose refined frequency lies inside the band, edges
    ///    inclusive. A maximum in the band's outermost bin whose vertex lies past the edge is the flank of a peak
    ///    that belongs to the neighbouring frequencies: it is not this band's peak, and it is never moved onto the
    ///    edge and reported as if it were.
    /// 3. With a fitted `background` (``PowerLawBackground/fit(_:)``), keep only those whose bin reaches its
    ///    prominence times the background's power at their refined frequency: a wiggle of 1/f noise is not a rhythm.
    /// 4. Report the largest of those that remain, at its refined frequency; none remaining is no peak.
    ///
    /// A bin that lies between two bands (13.67 Hz between 7–13 and 14–24 Hz at 250 Hz / 256 points) belongs to
    /// neither: it can be a neighbour that stops an edge bin from being a maximum, never a band's peak.
    ///
    /// - Precondition: `spectrum.count == binCount` and `range` lies inside `0..<binCount`.
    /// - Complexity: O(bins in the range); no allocation.
    public func localPeak(
        of spectrum: UnsafeBufferPointer<Double>, bins range: ClosedRange<Int>, in band: FrequencyBand,
        above background: PowerLawFit? = nil
    ) -> SpectralPeak? {
        precondition(spectrum.count == binCount && range.lowerBound >= 0 && range.upperBound < binCount)
        var best = -1
        var bestFrequency = 0.0
        for k in range {
            let value = spectrum[k]
            guard value > 0, value.isFinite else { continue }
            if k > 0, !(value > spectrum[k - 1]) { continue }
            if k < binCount - 1, !(value >= spectrum[k + 1]) { continue }
            guard best < 0 || value > spectrum[best] else { continue }
            let frequency = refinedPosition(of: spectrum, at: k) * binWidth
            guard frequency >= band.lower, frequency <= band.upper else { continue }
            if let background, !background.stands(value, frequency: frequency) { continue }
            best = k
            bestFrequency = frequency
        }
        guard best >= 0 else { return nil }
        return SpectralPeak(frequency: bestFrequency, power: spectrum[best], bin: best)
    }

    /// ``localPeak(of:bins:in:above:)`` for an array and a band resolved on the call.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` and the errors of ``bins(in:)``.
    public func localPeak(of spectrum: [Double], in band: FrequencyBand) throws(DSPError) -> SpectralPeak? {
        guard spectrum.count == binCount else { throw .lengthMismatch(expected: binCount, actual: spectrum.count) }
        let range = try bins(in: band)
        return spectrum.withUnsafeBufferPointer { localPeak(of: $0, bins: range, in: band) }
    }
}
