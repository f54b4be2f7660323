// AxonDSP — a window's 1/f background, so a band's "peak" must stand out of it to count.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The straight line through a spectrum's log power against log frequency over a fit range (2–40 Hz by default):
/// the 1/f^β background of EEG, `P(f) ≈ e^(a + b·ln f)`. One window's periodogram scatters around the expected
/// power with an exponential distribution, whose log averages `γ = 0.5772` below the log of its mean, so the
/// background adds γ back: it estimates the background's mean power, not its geometric mean.
///
/// The EEG engine keeps a band's local maximum as the band's peak only if it reaches its configured prominence
/// (`EEGEngine.Configuration.peakProminence`) times this background at its frequency (``PowerLawFit/stands(_:frequency:)``): a band of
/// 1/f noise then reports no peak in most windows (at 4×, theta in all of 299 windows and beta in 269, on 5 minutes
/// of 1/f noise), where any local maximum would report one in most.
///
/// Cost: ``fit(_:)`` fits every other bin of the range (neighbouring bins of a Hann-windowed spectrum share much of
/// their noise, so the second half adds little) with one log each, two bins at a time (a series log on SIMD pairs,
/// within 10⁻⁹ of the library's),
/// and returns a plain ``PowerLawFit`` the peak test reads (`axon bench --peak-estimators` measures the hop).
///
/// Threading: an immutable value, `Sendable`; ``fit(_:)`` and the test allocate nothing.
public struct PowerLawBackground: Sendable {
    /// The range fitted (every other bin of it, from its first).
    public let bins: ClosedRange<Int>
    /// The multiple of the background a peak must reach.
    public let prominence: Double
    private let logProminence: Double
    /// ln f of every bin of the grid (bin 0: ln of half a bin, never used by the fit).
    private let logFrequencies: [Double]
    /// The bins fitted, every other bin of ``bins``, padded to an even count with the last bin again (at weight 0)
    /// so the fit reads them in pairs.
    private let fitted: [Int]
    /// The least-squares line as weights on the fitted bins' log powers, when every one has power (the usual
    /// case): slope `Σ (xᵢ − x̄)/Sxx · yᵢ`, intercept `Σ (1/n − x̄·(xᵢ − x̄)/Sxx) · yᵢ`.
    private let slopeWeights: [Double]
    private let interceptWeights: [Double]
    private let grid: FrequencyGrid

    /// Prepares a fit over the bins of `grid` whose centres lie in `range` (bin 0 never, the fit needs ln f).
    ///
    /// - Throws: ``DSPError/emptyBand(lower:upper:binWidth:)`` when fewer than 3 bins lie there (after clipping the
    ///   range to the grid's Nyquist frequency).
    public init(grid: FrequencyGrid, range: ClosedRange<Double> = 2...40, prominence: Double = 4) throws(DSPError) {
        let upper = min(range.upperBound, grid.nyquist - grid.binWidth)
        let first = max(1, Int((range.lowerBound / grid.binWidth).rounded(.up)))
        let last = Int((upper / grid.binWidth).rounded(.down))
        guard last - first + 1 >= 3 else {
            throw .emptyBand(lower: range.lowerBound, upper: range.upperBound, binWidth: grid.binWidth)
        }
        bins = first...last
        let logFrequencies = (0..<grid.binCount).map { log(max(grid.frequency(ofBin: $0), grid.binWidth / 2)) }
        let fitted = Array(stride(from: first, through: last, by: 2))
        let x = fitted.map { logFrequencies[$0] }
        let mean = x.reduce(0, +) / Double(x.count)
        let spread = x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let padding = Array(repeating: 0.0, count: fitted.count % 2)
        slopeWeights = x.map { ($0 - mean) / spread } + padding
        interceptWeights = x.map { 1 / Double(x.count) - mean * ($0 - mean) / spread } + padding
        self.logFrequencies = logFrequencies
        self.fitted = fitted + padding.map { _ in fitted[fitted.count - 1] }
        self.prominence = prominence
        logProminence = prominence > 0 ? log(prominence) : -.infinity
        self.grid = grid
    }

    /// The line fitted to `spectrum`, or `nil` when fewer than 3 of the fitted bins have power (then no
    /// background is known and every maximum counts).
    ///
    /// - Precondition: `spectrum.count == grid.binCount`.
    /// - Complexity: O(bins fitted), one log per bin; no allocation.
    public func fit(_ spectrum: UnsafeBufferPointer<Double>) -> PowerLawFit? {
        precondition(spectrum.count == grid.binCount)
        // The usual case: every fitted bin has power, and the line is two weighted sums of the log powers, taken
        // two bins at a time (the logs of a pair in one pass of SIMD arithmetic).
        var slopes = SIMD2<Double>()
        var intercepts = SIMD2<Double>()
        var complete = true
        fitted.withUnsafeBufferPointer { fitted in
            slopeWeights.withUnsafeBufferPointer { a in
                interceptWeights.withUnsafeBufferPointer { b in
                    for index in stride(from: 0, to: fitted.count, by: 2) {
                        let values = SIMD2(spectrum[fitted[index]], spectrum[fitted[index + 1]])
                        guard all(values .> 0), all(values .< .infinity) else {
                            complete = false
                            return
                        }
                        let logValues = fastLog(values)
                        slopes += SIMD2(a[index], a[index + 1]) * logValues
                        intercepts += SIMD2(b[index], b[index + 1]) * logValues
                    }
                }
            }
        }
        var slope = slopes.sum()
        let intercept = intercepts.sum()
        if complete { return PowerLawFit(intercept: intercept, slope: slope, logProminence: logProminence) }
        // Some bins without power: fit the others.
        var count = 0
        var sumX = 0.0
        var sumY = 0.0
        var sumXX = 0.0
        var sumXY = 0.0
        logFrequencies.withUnsafeBufferPointer { x in
            for bin in stride(from: bins.lowerBound, through: bins.upperBound, by: 2) {
                let value = spectrum[bin]
                guard value > 0, value.isFinite else { continue }
                let logValue = fastLog(value)
                count += 1
                sumX += x[bin]
                sumY += logValue
                sumXX += x[bin] * x[bin]
                sumXY += x[bin] * logValue
            }
        }
        guard count >= 3 else { return nil }
        let n = Double(count)
        let denominator = sumXX - sumX * sumX / n
        slope = denominator > 0 ? (sumXY - sumX * sumY / n) / denominator : 0
        return PowerLawFit(intercept: (sumY - slope * sumX) / n, slope: slope, logProminence: logProminence)
    }
}

/// One window's fitted background, `ln P = a + b·ln f`, and the prominence a peak must reach over it: a plain
/// value, so the peak search carries it without reference counting.
///
/// Threading: a plain value, `Sendable`.
public struct PowerLawFit: Sendable, Hashable {
    /// The intercept `a`.
    public var intercept: Double
    /// The slope `b` (−β).
    public var slope: Double
    /// ln of the multiple of the background a peak must reach.
    public var logProminence: Double
    private static let gamma = 0.5772156649015329

    /// The background's mean power at `frequency` hertz (`e^(a + b·ln f + γ)`).
    public func power(at frequency: Double) -> Double {
        exp(intercept + slope * log(frequency) + Self.gamma)
    }

    /// Whether `value`, a peak's power at `frequency` hertz, reaches the prominence times the background there
    /// (compared in logs).
    ///
    /// - Complexity: O(1), the two logs taken as one pair; no allocation.
    @inline(__always)
    public func stands(_ value: Double, frequency: Double) -> Bool {
        guard value > 0, value.isFinite else { return false }
        let logs = fastLog(SIMD2(value, max(frequency, 1e-9)))
        return logs[0] >= logProminence + intercept + slope * logs[1] + Self.gamma
    }
}

/// ln x for a positive, finite x (within 10⁻⁹ of the library's): ``fastLog(_:)-(SIMD2<Double>)`` on a pair of
/// one value; subnormals go to `log`.
@inline(__always)
func fastLog(_ x: Double) -> Double {
    guard x.isNormal else { return log(x) }
    return fastLog(SIMD2(repeating: x))[0]
}

/// ln of two positive, finite values at once: the exponent from the bits, the mantissa m scaled into [√½, √2), and
/// ln m from the series `2·atanh(t)`, `t = (m − 1)/(m + 1)` (|t| ≤ 0.172), to t⁹; subnormals go to `log`.
@inline(__always)
func fastLog(_ x: SIMD2<Double>) -> SIMD2<Double> {
    guard x[0].isNormal, x[1].isNormal else { return SIMD2(log(x[0]), log(x[1])) }
    let bits = unsafeBitCast(x, to: SIMD2<UInt64>.self)
    var exponent = SIMD2<Int64>(truncatingIfNeeded: bits &>> 52) &- 1023
    var m = unsafeBitCast((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000, to: SIMD2<Double>.self)
    let large = m .> 1.4142135623730951
    m.replace(with: m * 0.5, where: large)
    exponent.replace(with: exponent &+ 1, where: large)
    let t = (m - 1) / (m + 1)
    let t2 = t * t
    // Horner's rule, one step a line (one expression is too much for the type checker).
    var series = t2 * (2.0 / 9) + 2.0 / 7
    series = series * t2 + 2.0 / 5
    series = series * t2 + 2.0 / 3
    series = series * t2 + 2
    return SIMD2(Double(exponent[0]), Double(exponent[1])) * 0.6931471805599453 + t * series
}
