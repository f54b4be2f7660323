import AxonMemory
import Foundation

/// A fixed-bin histogram of durations for live percentiles: 64 equal bins per octave from 1 ns to 2^34 ns (≈ 17 s),
/// so a reported percentile is within 0.8 % of the true value (fine enough to compare two runs within a few
/// percent; 8 bins per octave made neighbouring figures 12 % apart).
///
/// Threading contract: single owner (the consumer thread). `record` allocates nothing.
final class DurationHistogram {
    static let binsPerOctave = 64
    static let binCount = 34 * binsPerOctave

    private let bins = OwnedBuffer<UInt64>(repeating: 0, count: DurationHistogram.binCount)
    private(set) var count: UInt64 = 0
    private(set) var maximum = 0.0

    init() {}

    /// Records a duration in seconds.
    func record(_ seconds: Double) { record(seconds, times: 1) }

    /// Records a duration in seconds `times` times (one binning for a batch whose frames share a bound).
    func record(_ seconds: Double, times: UInt64) {
        // Octave from the binary exponent, 64th of the octave from the top six significand bits: no log2 call on
        // the per-frame path.
        let nanoseconds = max(seconds * 1e9, 1)
        let sixtyFourth = Int(truncatingIfNeeded: (nanoseconds.significandBitPattern >> 46) & 63)
        let bin = min(Self.binCount - 1, Int(nanoseconds.exponent) * Self.binsPerOctave + sixtyFourth)
        bins[bin] += times
        count += times
        if seconds > maximum { maximum = seconds }
    }

    /// The duration (seconds) below which a fraction `q` of recordings fall: the centre of its bin.
    func percentile(_ q: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = UInt64((q * Double(count)).rounded(.up))
        var seen: UInt64 = 0
        for bin in 0..<Self.binCount {
            seen += bins[bin]
            if seen >= max(rank, 1) {
                let octave = Double(sign: .plus, exponent: bin / Self.binsPerOctave, significand: 1)
                let fraction = (Double(bin % Self.binsPerOctave) + 0.5) / Double(Self.binsPerOctave)
                return min(maximum, octave * (1 + fraction) * 1e-9)
            }
        }
        return maximum
    }
}
