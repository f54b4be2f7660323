// AxonDSP — an IIR filter design as a cascade of second-order sections: coefficients, response, steady state.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A digital IIR filter as a cascade of second-order sections (biquads), each normalised so that `a0 = 1`.
///
/// Section `s` has the transfer function `(b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²)` and the cascade is their
/// product. A design is a value: build it with ``butterworth(order:_:sampleRate:)`` or
/// ``notch(at:quality:harmonics:sampleRate:)``, chain designs with ``cascaded(with:)``, check it with
/// ``magnitudeDecibels(at:)``, run it causally block by block with ``SOSFilter`` or forward and backward over a whole
/// recording with ``zeroPhaseFiltered(_:padLength:)``.
///
/// Threading: a plain value, `Sendable`.
///
///     let band = try SecondOrderSections.butterworth(order: 4, .bandPass(1, 50), sampleRate: 250)
///     let line = try SecondOrderSections.notch(at: 50, harmonics: true, sampleRate: 250)
///     let design = try band.cascaded(with: line)
///     design.magnitudeDecibels(at: 50)   // far below −100 dB
public struct SecondOrderSections: Sendable, Equatable {
    /// One biquad, `(b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²)`; a first-order section has `b2 = a2 = 0`.
    public struct Section: Sendable, Equatable {
        /// Numerator coefficient of z⁰.
        public var b0: Double
        /// Numerator coefficient of z⁻¹.
        public var b1: Double
        /// Numerator coefficient of z⁻².
        public var b2: Double
        /// Denominator coefficient of z⁻¹ (the denominator's z⁰ coefficient is 1).
        public var a1: Double
        /// Denominator coefficient of z⁻².
        public var a2: Double

        /// Creates a section from its coefficients, with `a0 = 1`.
        public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
            self.b0 = b0
            self.b1 = b1
            self.b2 = b2
            self.a1 = a1
            self.a2 = a2
        }

        /// The gain for a constant input, `(b0 + b1 + b2) / (1 + a1 + a2)`.
        var dcGain: Double { (b0 + b1 + b2) / (1 + a1 + a2) }
    }

    /// The sections, applied first to last.
    public let sections: [Section]
    /// The sample rate in hertz the design was made for; frequencies are relative to it.
    public let sampleRate: Double

    /// Creates a design from sections normalised to `a0 = 1`.
    ///
    /// - Throws: ``DSPError/invalidSampleRate(_:)`` unless the rate is finite and positive;
    ///   ``DSPError/invalidSize(size:minimum:)`` if there is no section;
    ///   ``DSPError/invalidParameter(name:value:requirement:)`` if a coefficient is not finite.
    public init(sections: [Section], sampleRate: Double) throws(DSPError) {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard !sections.isEmpty else { throw .invalidSize(size: 0, minimum: 1) }
        for section in sections {
            for value in [section.b0, section.b1, section.b2, section.a1, section.a2] where !value.isFinite {
                throw .invalidParameter(name: "section coefficient", value: value, requirement: "it must be finite")
            }
        }
        self.sections = sections
        self.sampleRate = sampleRate
    }

    /// The Nyquist frequency, half the sample rate, in hertz.
    public var nyquist: Double { sampleRate / 2 }

    /// This design followed by `other`: the response is the product of both (the sum in decibels).
    ///
    /// - Throws: ``DSPError/invalidParameter(name:value:requirement:)`` unless both designs have the same sample rate.
    public func cascaded(with other: SecondOrderSections) throws(DSPError) -> SecondOrderSections {
        guard other.sampleRate == sampleRate else {
            throw .invalidParameter(
                name: "sample rate of the second design", value: other.sampleRate,
                requirement: "it must equal the first design's \(sampleRate) Hz")
        }
        return try SecondOrderSections(sections: sections + other.sections, sampleRate: sampleRate)
    }

    /// The magnitude of the frequency response at `frequency` hertz, as a ratio (1 = passed unchanged).
    ///
    /// - Complexity: O(sections).
    public func magnitude(at frequency: Double) -> Double {
        let squared = sections.reduce(1.0) { product, section in product * squaredGain(section, frequency) }
        return squared.squareRoot()
    }

    /// The magnitude of the frequency response at `frequency` hertz in decibels, `20 log₁₀ |H(e^{iω})|` with
    /// `ω = 2π · frequency / sampleRate`; `-infinity` exactly on a zero of the response.
    ///
    /// Each section's gain is taken in decibels and summed, so a deep stop band does not underflow.
    ///
    /// - Complexity: O(sections).
    public func magnitudeDecibels(at frequency: Double) -> Double {
        sections.reduce(0.0) { sum, section in sum + 10 * log10(squaredGain(section, frequency)) }
    }

    /// `|H_s(e^{iω})|²` of one section at `frequency` hertz.
    private func squaredGain(_ section: Section, _ frequency: Double) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        let (c1, s1, c2, s2) = (cos(omega), sin(omega), cos(2 * omega), sin(2 * omega))
        let numeratorRe = section.b0 + section.b1 * c1 + section.b2 * c2
        let numeratorIm = section.b1 * s1 + section.b2 * s2
        let denominatorRe = 1 + section.a1 * c1 + section.a2 * c2
        let denominatorIm = section.a1 * s1 + section.a2 * s2
        return (numeratorRe * numeratorRe + numeratorIm * numeratorIm)
            / (denominatorRe * denominatorRe + denominatorIm * denominatorIm)
    }

    /// The state of every section, two values each in transposed direct form II, after a constant input of 1 has
    /// been applied forever: the cascade's steady state for a step, each section's state scaled by the DC gain of the
    /// sections before it. Multiplied by a first value `x`, it starts a filter as if `x` had always been its input,
    /// so a DC offset gives no transient (the role of SciPy's `sosfilt_zi`).
    ///
    /// A section with a pole at z = 1 (`1 + a1 + a2 = 0`) has no steady state; its state and those after it are 0.
    public var unitStepState: [Double] {
        var state = [Double](repeating: 0, count: 2 * sections.count)
        var input = 1.0
        for (index, section) in sections.enumerated() {
            let denominator = 1 + section.a1 + section.a2
            guard denominator != 0, input.isFinite else { break }
            let output = input * (section.b0 + section.b1 + section.b2) / denominator
            // Transposed direct form II at rest on a constant: y = b0·x + z1, z1 = b1·x − a1·y + z2, z2 = b2·x − a2·y.
            state[2 * index + 1] = section.b2 * input - section.a2 * output
            state[2 * index] = section.b1 * input - section.a1 * output + state[2 * index + 1]
            input = output
        }
        return state
    }
}
