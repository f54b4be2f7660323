import Foundation

/// A fixed-bin histogram of durations for live percentiles: 8 equal bins per octave from 1 ns to 2^34 ns (≈ 17 s),
/// so a reported percentile is within 6.25 % of the true value.
///
/// Threading contract: single owner (the consumer thread). `record` allocates nothing.
final class DurationHistogram {
    static let binCount = 34 * 8

    private let bins: UnsafeMutableBufferPointer<UInt64>
    private(set) var count: UInt64 = 0
    private(set) var maximum = 0.0

    init() {
        bins = .allocate(capacity: Self.binCount)
        bins.initialize(repeating: 0)
    }

    deinit { bins.deallocate() }

    /// Records a duration in seconds.
    func record(_ seconds: Double) {
        // Octave from the binary exponent, eighth of the octave from the top three significand bits: no log2
        // call on the per-frame path.
        let nanoseconds = max(seconds * 1e9, 1)
        let eighth = Int(truncatingIfNeeded: (nanoseconds.significandBitPattern >> 49) & 7)
        let bin = min(Self.binCount - 1, Int(nanoseconds.exponent) * 8 + eighth)
        bins[bin] += 1
        count += 1
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
                let octave = Double(sign: .plus, exponent: bin / 8, significand: 1)
                return min(maximum, octave * (1 + (Double(bin % 8) + 0.5) / 8) * 1e-9)
            }
        }
        return maximum
    }
}
