// AxonDSP — second-order notch designs for mains interference (50 or 60 Hz and, optionally, its harmonics).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SecondOrderSections {
    /// A second-order notch at `frequency` hertz (and, with `harmonics`, one more at each multiple of it below the
    /// Nyquist frequency), each the same filter as SciPy's `iirnotch(f, quality, fs=sampleRate)`.
    ///
    /// Each notch has zeros on the unit circle at its frequency (the response there is exactly zero) and a −3 dB
    /// width of `f / quality` hertz: with `tan(π·width/fs) = β`, the section is
    /// `(1 − 2cos ω₀ z⁻¹ + z⁻²) / (1 + β) ÷ (1 − 2cos ω₀/(1 + β) z⁻¹ + (1 − β)/(1 + β) z⁻²)`. Every harmonic keeps the
    /// same `quality`, so its notch is proportionally wider.
    ///
    /// - Parameters:
    ///   - frequency: the mains frequency, strictly between 0 and the Nyquist frequency.
    ///   - quality: the centre frequency over the −3 dB width; SciPy's and MNE's usual 30 by default.
    ///   - harmonics: also remove `2·frequency`, `3·frequency`, … while below the Nyquist frequency.
    ///   - sampleRate: hertz.
    /// - Throws: ``DSPError/invalidSampleRate(_:)`` unless the rate is finite and positive;
    ///   ``DSPError/invalidParameter(name:value:requirement:)`` for a frequency outside `(0, sampleRate/2)` or a
    ///   quality that is not finite and positive.
    public static func notch(at frequency: Double, quality: Double = 30, harmonics: Bool = false, sampleRate: Double)
        throws(DSPError) -> SecondOrderSections
    {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard frequency.isFinite, frequency > 0, frequency < sampleRate / 2 else {
            throw .invalidParameter(
                name: "notch frequency", value: frequency, requirement: "it must lie in (0, rate/2)")
        }
        guard quality.isFinite, quality > 0 else {
            throw .invalidParameter(name: "notch quality factor", value: quality, requirement: "it must be positive")
        }
        var sections: [Section] = []
        var multiple = 1
        // Multiples are products rather than sums, so the last one is not pushed past Nyquist by rounding.
        while Double(multiple) * frequency < sampleRate / 2, multiple == 1 || harmonics {
            let centre = Double(multiple) * frequency
            let omega = 2 * Double.pi * centre / sampleRate
            let beta = tan(Double.pi * centre / quality / sampleRate)
            let scale = 1 / (1 + beta)
            let cosine = cos(omega)
            sections.append(
                Section(b0: scale, b1: -2 * cosine * scale, b2: scale, a1: -2 * cosine * scale, a2: 2 * scale - 1))
            multiple += 1
        }
        return try SecondOrderSections(sections: sections, sampleRate: sampleRate)
    }
}
