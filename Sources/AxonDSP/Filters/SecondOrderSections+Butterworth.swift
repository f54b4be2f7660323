// AxonDSP — Butterworth low-, high- and band-pass designs: analogue prototype, pre-warped bilinear transform, biquads.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which frequencies a Butterworth design passes; edges in hertz, each the −3 dB point of the response.
///
/// Threading: a plain value, `Sendable`.
public enum PassBand: Sendable, Equatable {
    /// Passes frequencies below `cutoff`.
    case lowPass(Double)
    /// Passes frequencies above `cutoff` (removes DC offsets and slow drift).
    case highPass(Double)
    /// Passes frequencies between `lower` and `upper`.
    case bandPass(Double, Double)
}

extension SecondOrderSections {
    /// A digital Butterworth filter of `order` (the analogue prototype's order; a band-pass has twice as many poles),
    /// the same filter as SciPy's `butter(order, edges, btype, fs=sampleRate, output='sos')`.
    ///
    /// The prototype's poles lie evenly on the left half of the unit circle; they are scaled to the pass band with
    /// edges pre-warped by `2·fs·tan(π f / fs)` (so the digital −3 dB points fall exactly on the given edges), mapped
    /// to the z-plane by the bilinear transform, and grouped into sections: complex poles with their conjugates, real
    /// poles two by two, and each group given the nearest zeros, the groups nearest the unit circle last.
    ///
    /// - Parameters:
    ///   - order: 1…64.
    ///   - band: the pass band; every edge must lie strictly between 0 and the Nyquist frequency.
    ///   - sampleRate: hertz.
    /// - Throws: ``DSPError/invalidSampleRate(_:)`` unless the rate is finite and positive;
    ///   ``DSPError/invalidParameter(name:value:requirement:)`` for an order outside 1…64, an edge outside
    ///   `(0, sampleRate/2)`, or a band-pass whose lower edge is not below its upper edge.
    /// - Complexity: O(order²).
    public static func butterworth(order: Int, _ band: PassBand, sampleRate: Double) throws(DSPError)
        -> SecondOrderSections
    {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard (1...64).contains(order) else {
            throw .invalidParameter(name: "filter order", value: Double(order), requirement: "it must lie in 1…64")
        }
        // Pre-warped analogue edge, in radians per second.
        func warped(_ edge: Double, _ name: String) throws(DSPError) -> Double {
            guard edge.isFinite, edge > 0, edge < sampleRate / 2 else {
                throw .invalidParameter(name: name, value: edge, requirement: "it must lie in (0, rate/2)")
            }
            return 2 * sampleRate * tan(Double.pi * edge / sampleRate)
        }

        let prototype = butterworthPrototypePoles(order: order)
        var poles: [Complex] = []
        var zeros: [Complex] = []
        // The analogue gain spread evenly over the poles, so that the running product below never overflows.
        var gainPerPole = 1.0
        switch band {
        case .lowPass(let cutoff):
            let omega = try warped(cutoff, "low-pass cutoff")
            poles = prototype.map { $0 * omega }
            gainPerPole = omega
        case .highPass(let cutoff):
            let omega = try warped(cutoff, "high-pass cutoff")
            poles = prototype.map { Complex(omega) / $0 }
            zeros = Array(repeating: Complex(0), count: order)
            // The prototype's gain 1 divided by Π(−p), which is 1 in exact arithmetic.
            gainPerPole = 1 / pow(prototype.reduce(Complex(1)) { $0 * -$1 }.re, 1 / Double(order))
        case .bandPass(let lower, let upper):
            let low = try warped(lower, "band-pass lower edge")
            let high = try warped(upper, "band-pass upper edge")
            guard lower < upper else {
                throw .invalidParameter(
                    name: "band-pass lower edge", value: lower, requirement: "it must be below the upper edge \(upper)")
            }
            let centre = (low * high).squareRoot()
            let width = high - low
            for pole in prototype {
                let scaled = pole * (width / 2)
                let offset = (scaled * scaled - Complex(centre * centre)).squareRoot()
                poles += [scaled + offset, scaled - offset]
            }
            zeros = Array(repeating: Complex(0), count: order)
            gainPerPole = width.squareRoot()
        }
        // Bilinear transform s = 2·fs·(z − 1)/(z + 1); the zeros at s = ∞ land on z = −1 (the Nyquist frequency).
        // The gain becomes k · Π(2fs − zero) / Π(2fs − pole), taken one factor at a time.
        let twice = Complex(2 * sampleRate)
        var gain = Complex(1)
        for (index, pole) in poles.enumerated() {
            let zeroFactor = index < zeros.count ? twice - zeros[index] : Complex(1)
            gain = gain * (zeroFactor / (twice - pole)) * gainPerPole
        }
        let digitalZeros =
            zeros.map { ((twice + $0) / (twice - $0)).re } + Array(repeating: -1, count: poles.count - zeros.count)
        let digitalPoles = poles.map { (twice + $0) / (twice - $0) }
        let sections = pairIntoSections(poles: digitalPoles, zeros: digitalZeros, gain: gain.re)
        return try SecondOrderSections(sections: sections, sampleRate: sampleRate)
    }

    /// The left-half-plane poles `−exp(iπm / 2N)`, `m = −N+1, −N+3, …, N−1`, conjugates built exactly as conjugates.
    private static func butterworthPrototypePoles(order: Int) -> [Complex] {
        var poles: [Complex] = []
        if order % 2 == 1 { poles.append(Complex(-1)) }
        for m in stride(from: order - 1, through: 1, by: -2) {
            let angle = Double.pi * Double(m) / Double(2 * order)
            let pole = Complex(-cos(angle), -sin(angle))
            poles += [pole, pole.conjugate]
        }
        return poles
    }

    /// Groups digital poles into sections and gives each group its nearest real zeros (a Butterworth filter's zeros
    /// all lie at z = ±1); `gain` goes to the first section's numerator.
    private static func pairIntoSections(poles: [Complex], zeros: [Double], gain: Double) -> [Section] {
        // Conjugate pairs are represented by their upper member; the tolerance is symmetric, so both members of a
        // pair that rounding left a hair off the real axis are treated alike.
        let tolerance = 1e-13
        var groups: [[Complex]] = poles.filter { $0.im > tolerance }.map { [$0, $0.conjugate] }
        let real = poles.filter { abs($0.im) <= tolerance }.map { Complex($0.re) }
            .sorted { $0.magnitude > $1.magnitude }
        var index = 0
        while index < real.count {
            groups.append(Array(real[index..<min(index + 2, real.count)]))
            index += 2
        }
        // Those nearest the unit circle (sharpest resonance) choose their zeros first and run last.
        groups.sort { $0[0].magnitude > $1[0].magnitude }
        var available = zeros
        var sections: [Section] = []
        for group in groups {
            var chosen: [Double] = []
            for _ in group {
                guard
                    let nearest = available.indices.min(by: {
                        (Complex(available[$0]) - group[0]).magnitude < (Complex(available[$1]) - group[0]).magnitude
                    })
                else { break }
                chosen.append(available.remove(at: nearest))
            }
            // (1 − q1 z⁻¹)(1 − q2 z⁻¹) and (1 − p1 z⁻¹)(1 − p2 z⁻¹); a missing zero or pole is at the origin.
            let q1 = chosen.count > 0 ? chosen[0] : 0
            let q2 = chosen.count > 1 ? chosen[1] : 0
            let (a1, a2): (Double, Double)
            if group.count == 2 {
                a1 = -(group[0] + group[1]).re
                a2 = (group[0] * group[1]).re
            } else {
                a1 = -group[0].re
                a2 = 0
            }
            sections.append(Section(b0: 1, b1: -(q1 + q2), b2: q1 * q2, a1: a1, a2: a2))
        }
        sections.reverse()
        sections[0].b0 *= gain
        sections[0].b1 *= gain
        sections[0].b2 *= gain
        return sections
    }
}

/// A complex number for the pole and zero arithmetic of the designs.
private struct Complex: Equatable {
    var re: Double
    var im: Double

    init(_ re: Double, _ im: Double = 0) {
        self.re = re
        self.im = im
    }

    var conjugate: Complex { Complex(re, -im) }
    var magnitude: Double { hypot(re, im) }

    /// The principal square root (non-negative real part).
    func squareRoot() -> Complex {
        let r = magnitude
        let root = Complex(((r + re) / 2).squareRoot(), ((r - re) / 2).squareRoot())
        return im < 0 ? root.conjugate : root
    }

    static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }
    static func - (a: Complex, b: Complex) -> Complex { Complex(a.re - b.re, a.im - b.im) }
    static prefix func - (a: Complex) -> Complex { Complex(-a.re, -a.im) }
    static func * (a: Complex, b: Complex) -> Complex { Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re) }
    static func * (a: Complex, b: Double) -> Complex { Complex(a.re * b, a.im * b) }
    static func / (a: Complex, b: Complex) -> Complex {
        let d = b.re * b.re + b.im * b.im
        return Complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }
}
