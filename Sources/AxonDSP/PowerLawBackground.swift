// AxonDSP — a window's 1/f background, so a band's "peak" must stand out of it to count.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The straight line through a spectrum's log power against log frequency over a fit range (2–40 Hz by default):
/// the 1/f^β background of EEG, `P(f) ≈ e^(a + b·ln f)`. One window's periodogram scatters around the expected
/// power with an exponential distribution, whose log averages `γ = 0.5772` below the log of its mean, so
/// ``power(at:)`` adds γ back: it estimates the background's mean power, not its geometric mean.
///
/// The EEG engine keeps a band's local maximum as the band's peak only if it reaches ``EEGEngine/Configuration/
/// peakProminence`` times this background at its frequency: a band of 1/f noise then reports no peak in most
/// windows (theta 97 %, beta 87 % at 4×, measured on 10 minutes of 1/f and 1/f² noise), where any local maximum
/// would report one in most.
///
/// Threading: a single-owner type (it holds the fit range's log frequencies); ``fit(_:)`` allocates nothing.
public struct PowerLawBackground: Sendable {
    /// The bins fitted.
    public let bins: ClosedRange<Int>
    private let logFrequencies: [Double]
    /// The fitted intercept `a` and slope `b` of `ln P = a + b·ln f` (zeros before the first fit).
    public private(set) var intercept = 0.0
    /// The fitted slope `b` (−β).
    public private(set) var slope = 0.0
    private let grid: FrequencyGrid

    /// Prepares a fit over the bins of `grid` whose centres lie in `range` (bin 0 never, the fit needs ln f).
    ///
    /// - Throws: ``DSPError/emptyBand(lower:upper:binWidth:)`` when fewer than 3 bins lie there (after clipping the
    ///   range to the grid's Nyquist frequency).
    public init(grid: FrequencyGrid, range: ClosedRange<Double> = 2...40) throws(DSPError) {
        let upper = min(range.upperBound, grid.nyquist - grid.binWidth)
        let first = max(1, Int((range.lowerBound / grid.binWidth).rounded(.up)))
        let last = Int((upper / grid.binWidth).rounded(.down))
        guard last - first + 1 >= 3 else {
            throw .emptyBand(lower: range.lowerBound, upper: range.upperBound, binWidth: grid.binWidth)
        }
        bins = first...last
        logFrequencies = bins.map { log(grid.frequency(ofBin: $0)) }
        self.grid = grid
    }

    /// Fits the line to `spectrum` (bins with no power are left out of the fit; with fewer than 3 left, the
    /// background is zero and every maximum stands out of it).
    ///
    /// - Precondition: `spectrum.count == grid.binCount`.
    /// - Complexity: O(bins fitted), one log per bin; no allocation.
    public mutating func fit(_ spectrum: UnsafeBufferPointer<Double>) {
        precondition(spectrum.count == grid.binCount)
        var count = 0
        var sumX = 0.0
        var sumY = 0.0
        var sumXX = 0.0
        var sumXY = 0.0
        logFrequencies.withUnsafeBufferPointer { x in
            for (offset, bin) in bins.enumerated() {
                let value = spectrum[bin]
                guard value > 0, value.isFinite else { continue }
                let y = log(value)
                count += 1
                sumX += x[offset]
                sumY += y
                sumXX += x[offset] * x[offset]
                sumXY += x[offset] * y
            }
        }
        guard count >= 3 else {
            intercept = -.infinity
            slope = 0
            return
        }
        let n = Double(count)
        let denominator = sumXX - sumX * sumX / n
        slope = denominator > 0 ? (sumXY - sumX * sumY / n) / denominator : 0
        intercept = (sumY - slope * sumX) / n
    }

    /// The fitted background's mean power at `frequency` hertz (`e^(a + b·ln f + γ)`).
    public func power(at frequency: Double) -> Double {
        exp(intercept + slope * log(frequency) + 0.5772156649015329)
    }
}
