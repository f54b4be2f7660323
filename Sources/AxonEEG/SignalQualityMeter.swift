// AxonEEG — per-window signal quality of one channel: railed, flat, mains, muscle and the eyes' slow swings.

import AxonDSP
import AxonMemory

/// One channel's quality in one window, as measured by ``SignalQualityMeter``.
///
/// Threading: a plain value, `Sendable`.
struct ChannelQuality: Sendable {
    var railedFraction = 0.0
    var power = 0.0
    var lineShare = 0.0
    var muscleShare = 0.0
    var slowSwing = 0.0
}

/// Measures a window's quality per channel (``SignalQualityThresholds``) from its samples and its spectrum.
///
/// Threading: a single-owner type (it owns scratch memory); the engine's thread. Allocates only at init.
final class SignalQualityMeter {
    let thresholds: SignalQualityThresholds
    /// Whether each channel is looked at for eye artifacts.
    let isEyeChannel: [Bool]
    // The limits read every window, copied out of `thresholds` so the hot path reads plain words.
    /// The blink limit's floor, and the whole limit when the rule is absolute.
    let blinkAmplitude: Double
    let muscleShareLimit: Double
    let excludesArtifacts: Bool
    private let maxRailedFraction: Double
    private let flatPower: Double
    private let equivalentNoiseBandwidth: Double

    private let railLevel: Double
    private let smoothLength: Int
    private let smoothStride: Int
    private let smoothed: OwnedBuffer<Double>
    private let blockSums: OwnedBuffer<Double>
    private let lineBins: [ClosedRange<Int>]
    private let fullBins: ClosedRange<Int>
    private let muscleBins: ClosedRange<Int>?
    private let muscleReferenceBins: ClosedRange<Int>?
    /// Each eye channel's recent swings (``SignalQualityThresholds/blinkScale``); `nil` when the rule is absolute.
    private let swingHistory: SwingHistory?

    init(
        thresholds: SignalQualityThresholds, labels: [String], grid: FrequencyGrid, windowSize: Int, hop: Int,
        equivalentNoiseBandwidth: Double
    ) {
        self.thresholds = thresholds
        let eyes = Set(thresholds.eyeChannels(labels: labels))
        isEyeChannel = labels.indices.map { eyes.contains($0) }
        if let scale = thresholds.blinkScale, !eyes.isEmpty {
            let windowsPerSecond = grid.sampleRate / Double(max(1, hop))
            let capacity = max(1, Int((thresholds.blinkHistory * windowsPerSecond).rounded(.up)))
            swingHistory = SwingHistory(
                channels: labels.count, capacity: capacity, scale: scale,
                warmUp: min(capacity, Int((thresholds.blinkWarmUp * windowsPerSecond).rounded(.up))))
        } else {
            swingHistory = nil
        }
        blinkAmplitude = thresholds.blinkAmplitude
        muscleShareLimit = thresholds.muscleShareLimit
        excludesArtifacts = thresholds.excludeArtifacts
        maxRailedFraction = thresholds.maxRailedFraction
        flatPower = thresholds.flatPower
        self.equivalentNoiseBandwidth = equivalentNoiseBandwidth
        railLevel = (thresholds.railMagnitude ?? .infinity) * 0.999
        // 100 ms as five steps of about 20 ms: a moving average that long has its zeros at 10, 20, … Hz, so alpha
        // and the 50/60 Hz mains cancel and the eyes' slow swings remain; taken every step, it loses none of them.
        smoothStride = max(1, min(windowSize / 10, Int((0.02 * grid.sampleRate).rounded())))
        smoothLength = 5 * smoothStride
        smoothed = OwnedBuffer(repeating: 0, count: windowSize)
        blockSums = OwnedBuffer(repeating: 0, count: windowSize / smoothStride + 1)
        let nyquist = grid.sampleRate / 2
        lineBins = thresholds.lineFrequencies.compactMap { frequency in
            guard frequency + 1 <= nyquist, let band = try? FrequencyBand(frequency - 1, frequency + 1) else {
                return nil
            }
            return try? grid.bins(in: band)
        }
        fullBins = (try? grid.bins(in: FrequencyBand(1, nyquist))) ?? 1...(grid.binCount - 1)
        let muscle = thresholds.muscleBand
        if muscle.upper <= nyquist, let reference = try? FrequencyBand(3, muscle.upper) {
            muscleBins = try? grid.bins(in: muscle)
            muscleReferenceBins = try? grid.bins(in: reference)
        } else {
            muscleBins = nil
            muscleReferenceBins = nil
        }
    }

    /// Measures one channel's window, given in time order as two pieces (the circular history's tail and head),
    /// and its one-sided power spectrum.
    ///
    /// - Complexity: O(window) with no allocation.
    func measure(
        _ older: UnsafeBufferPointer<Double>, _ newer: UnsafeBufferPointer<Double>, spectrum: UnsafeBufferPointer<Double>
    ) -> ChannelQuality {
        let count = older.count + newer.count
        var quality = ChannelQuality()
        guard count >= 2 * smoothLength else { return quality }
        // Railed samples, and the sum of each run of `smoothStride` samples in time order (about the first sample,
        // for conditioning): every 100 ms moving average below is five of those sums, and unlike a running sum
        // over the whole window no addition waits on more than `smoothStride − 1` others.
        let pivot = older.first ?? newer[0]
        let railed = railLevel.isFinite
            ? Self.countRailed(older, level: railLevel) + Self.countRailed(newer, level: railLevel) : 0
        quality.railedFraction = Double(railed) / Double(count)
        let (smoothStride, smoothLength) = (smoothStride, smoothLength)
        quality.slowSwing = blockSums.withUnsafeMutableBufferPointer { blockSums in
            smoothed.withUnsafeMutableBufferPointer { smoothed in
                var runs = BlockSums(into: blockSums.baseAddress!, length: smoothStride, pivot: pivot)
                runs.add(older)
                runs.add(newer)
                let blockCount = runs.count
                let blocks = blockSums.baseAddress!
                // The 100 ms moving average every `smoothStride` samples (it changes little between): its
                // least-squares line against the sample index, then the residual's peak to peak.
                let scale = 1 / Double(smoothLength)
                let s = smoothed.baseAddress!
                var points = 0
                var sum = 0.0
                var indexSum = 0.0
                while points + 5 <= blockCount {
                    let mean =
                        (blocks[points] + blocks[points + 1] + blocks[points + 2] + blocks[points + 3]
                            + blocks[points + 4]) * scale
                    s[points] = mean
                    sum += mean
                    indexSum += Double(points * smoothStride) * mean
                    points += 1
                }
                return Self.detrendedSwing(
                    UnsafeBufferPointer(start: s, count: points), stride: Double(smoothStride), sum: sum,
                    indexSum: indexSum)
            }
        }
        let total = Self.sum(spectrum, fullBins)
        quality.power = total / equivalentNoiseBandwidth
        if total > 0 {
            var line = 0.0
            for bins in lineBins { line += Self.sum(spectrum, bins) }
            quality.lineShare = line / total
        }
        if let muscleBins, let muscleReferenceBins {
            let reference = Self.sum(spectrum, muscleReferenceBins)
            quality.muscleShare = reference > 0 ? Self.sum(spectrum, muscleBins) / reference : 0
        } else {
            quality.muscleShare = .nan
        }
        return quality
    }

    /// Samples whose magnitude reaches `level` (a loop without a carried floating-point chain: it vectorises).
    private static func countRailed(_ samples: UnsafeBufferPointer<Double>, level: Double) -> Int {
        var railed = 0
        for value in samples where abs(value) >= level { railed += 1 }
        return railed
    }

    /// Sums of consecutive runs of `length` samples (minus `pivot`) over a window given in pieces. Each run is its
    /// own short chain of additions, so the processor overlaps the runs; a run split between two pieces is carried.
    private struct BlockSums {
        let target: UnsafeMutablePointer<Double>
        let length: Int
        let pivot: Double
        private(set) var count = 0
        private var carry = 0.0
        private var carried = 0

        init(into target: UnsafeMutablePointer<Double>, length: Int, pivot: Double) {
            self.target = target
            self.length = length
            self.pivot = pivot
        }

        mutating func add(_ piece: UnsafeBufferPointer<Double>) {
            guard let x = piece.baseAddress else { return }
            let total = piece.count
            var i = 0
            if carried > 0 {
                let taken = min(length - carried, total)
                for j in 0..<taken { carry += x[j] - pivot }
                carried += taken
                i = taken
                if carried == length {
                    target[count] = carry
                    count += 1
                    carry = 0
                    carried = 0
                }
            }
            while i + length <= total {
                var run = 0.0
                for j in i..<(i + length) { run += x[j] - pivot }
                target[count] = run
                count += 1
                i += length
            }
            for j in i..<total { carry += x[j] - pivot }
            carried += total - i
        }
    }

    /// The slow swing above which `channel`'s window is contaminated by the eyes: ``blinkAmplitude``, or the
    /// scale times the channel's typical swing when that is higher and its history is warm.
    ///
    /// - Complexity: O(1), no allocation.
    func blinkLimit(channel: Int) -> Double {
        guard let swingHistory else { return blinkAmplitude }
        return max(blinkAmplitude, swingHistory.scaledTypical(channel: channel))
    }

    /// Adds a usable window's slow swing to `channel`'s history (after it has been judged).
    ///
    /// - Complexity: amortised O(1), no allocation.
    func remember(swing: Double, channel: Int) {
        swingHistory?.add(swing, channel: channel)
    }

    /// Whether a channel's window can be used: not railed, not flat, and its analysis gave power.
    func isUsable(_ quality: ChannelQuality, referencePower: Double) -> Bool {
        quality.railedFraction <= maxRailedFraction && quality.power >= flatPower && Self.hasPower(referencePower)
    }

    /// Whether a window's analysis gave power in the reference band (all a channel needs when quality is not
    /// measured).
    static func hasPower(_ referencePower: Double) -> Bool { referencePower > 0 && referencePower.isFinite }

    /// Peak-to-peak of the smoothed points (taken every `stride` samples) after their least-squares line is
    /// removed.
    private static func detrendedSwing(_ points: UnsafeBufferPointer<Double>, stride: Double, sum: Double, indexSum: Double)
        -> Double
    {
        let m = Double(points.count)
        guard points.count >= 2 else { return 0 }
        // Least squares against the centred point number c = j − (m − 1)/2: slope = Σ c·y / Σ c², intercept = mean.
        // `indexSum` is Σ (stride · j) · y.
        let centre = (m - 1) / 2
        let centredSum = indexSum / stride - centre * sum
        let squares = m * (m * m - 1) / 12
        let slope = centredSum / squares
        let mean = sum / m
        var high = -Double.infinity
        var low = Double.infinity
        for j in 0..<points.count {
            let residual = points[j] - mean - slope * (Double(j) - centre)
            // Plain comparisons, not `max`/`min` (which order NaNs and compile to a longer sequence).
            high = residual > high ? residual : high
            low = residual < low ? residual : low
        }
        return high - low
    }

    private static func sum(_ spectrum: UnsafeBufferPointer<Double>, _ bins: ClosedRange<Int>) -> Double {
        // Four running sums: independent additions the processor overlaps, instead of one long chain.
        var partial = (0.0, 0.0, 0.0, 0.0)
        var k = bins.lowerBound
        while k + 3 <= bins.upperBound {
            partial.0 += spectrum[k]
            partial.1 += spectrum[k + 1]
            partial.2 += spectrum[k + 2]
            partial.3 += spectrum[k + 3]
            k += 4
        }
        while k <= bins.upperBound {
            partial.0 += spectrum[k]
            k += 1
        }
        return (partial.0 + partial.1) + (partial.2 + partial.3)
    }
}

/// Each channel's slow swings over its last `capacity` usable windows, kept as a histogram of bins eight to the
/// octave (each an eighth of its octave wide, so a value is known to within 6 %) with a ring of the bins in
/// arrival order, and the bin of their lower quartile, moved as values come and go. All memory is taken at init.
///
/// Threading: a single-owner type, owned by ``SignalQualityMeter``; the engine's thread.
private final class SwingHistory {
    static let binsPerOctave = 8
    /// Octaves below 1 unit the bins reach: 2⁻⁶⁴ … 2⁶⁴ covers volts and microvolts alike.
    static let octaveOffset = 64
    static let binCount = 2 * octaveOffset * binsPerOctave

    let capacity: Int
    let scale: Double
    let warmUp: Int
    /// Per channel, `binCount` counts.
    private let counts: OwnedBuffer<Int32>
    /// Per channel, `capacity` bins in arrival order (a ring).
    private let ring: OwnedBuffer<UInt16>
    /// Per channel: values held, the ring's next slot, the quartile's bin and how many values lie below it.
    private struct Position {
        var held = 0
        var next = 0
        var quartileBin = 0
        var below = 0
    }
    private let positions: OwnedBuffer<Position>

    init(channels: Int, capacity: Int, scale: Double, warmUp: Int) {
        self.capacity = capacity
        self.scale = scale
        self.warmUp = warmUp
        counts = OwnedBuffer(repeating: 0, count: channels * Self.binCount)
        ring = OwnedBuffer(repeating: 0, count: channels * capacity)
        positions = OwnedBuffer(repeating: Position(), count: channels)
    }

    /// `scale` times the channel's lower quartile (its bin's middle), or 0 before the warm-up is done.
    func scaledTypical(channel: Int) -> Double {
        guard positions[channel].held >= max(1, warmUp) else { return 0 }
        return scale * Self.value(ofBin: positions[channel].quartileBin)
    }

    func add(_ swing: Double, channel: Int) {
        guard swing.isFinite else { return }
        let bin = Self.bin(of: swing)
        var p = positions[channel]
        let slot = channel * capacity + p.next
        let base = channel * Self.binCount
        if p.held == capacity {
            let leaving = Int(ring[slot])
            counts[base + leaving] -= 1
            if leaving < p.quartileBin { p.below -= 1 }
        } else {
            p.held += 1
        }
        ring[slot] = UInt16(bin)
        p.next = p.next + 1 == capacity ? 0 : p.next + 1
        counts[base + bin] += 1
        if bin < p.quartileBin { p.below += 1 }
        // Move the quartile's bin until the rank-th smallest value lies in it: below < rank ≤ below + count.
        let rank = max(1, (p.held + 3) / 4)
        while p.below >= rank {
            p.quartileBin -= 1
            p.below -= Int(counts[base + p.quartileBin])
        }
        while p.below + Int(counts[base + p.quartileBin]) < rank {
            p.below += Int(counts[base + p.quartileBin])
            p.quartileBin += 1
        }
        positions[channel] = p
    }

    /// The bin of a finite value: eight per octave, from the exponent and the significand's first three bits'
    /// worth (no logarithm); values at or below 2⁻⁶⁴ in the first, at or above 2⁶⁴ in the last.
    static func bin(of value: Double) -> Int {
        guard value > 0 else { return 0 }
        let octave = Int(value.exponent) + octaveOffset
        let step = Int((value.significand - 1) * Double(binsPerOctave))
        return min(binCount - 1, max(0, octave * binsPerOctave + step))
    }

    /// The middle of a bin: 2^octave × (1 + (step + ½) / 8).
    static func value(ofBin bin: Int) -> Double {
        let octave = bin / binsPerOctave - octaveOffset
        let step = bin % binsPerOctave
        return Double(sign: .plus, exponent: octave, significand: 1 + (Double(step) + 0.5) / Double(binsPerOctave))
    }
}
