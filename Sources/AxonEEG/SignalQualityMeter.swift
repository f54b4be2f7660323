// AxonEEG — per-window signal quality of one channel: railed, flat, mains, muscle and the eyes' slow swings.

import AxonDSP

/// One channel's quality in one window, as measured by ``SignalQualityMeter``.
///
/// Threading: a plain value, `Sendable`.
struct ChannelQuality: Sendable {
    var railedFraction = 0.0
    var variance = 0.0
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

    private let railLevel: Double
    private let smoothLength: Int
    private let smoothed: UnsafeMutableBufferPointer<Double>
    private let lineBins: [ClosedRange<Int>]
    private let fullBins: ClosedRange<Int>
    private let muscleBins: ClosedRange<Int>?
    private let muscleReferenceBins: ClosedRange<Int>?

    init(thresholds: SignalQualityThresholds, labels: [String], grid: FrequencyGrid, windowSize: Int) {
        self.thresholds = thresholds
        let eyes = Set(thresholds.eyeChannels(labels: labels))
        isEyeChannel = labels.indices.map { eyes.contains($0) }
        railLevel = (thresholds.railMagnitude ?? .infinity) * 0.999
        // 100 ms: a moving average that long has its zeros at 10, 20, … Hz, so alpha and the 50/60 Hz mains cancel
        // and the eyes' slow swings remain.
        smoothLength = max(1, min(windowSize / 2, Int((0.1 * grid.sampleRate).rounded())))
        smoothed = .allocate(capacity: windowSize)
        smoothed.initialize(repeating: 0)
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

    deinit { smoothed.deallocate() }

    /// Measures one channel's window, given in time order as two pieces (the circular history's tail and head),
    /// and its one-sided power spectrum.
    ///
    /// - Complexity: O(window) with no allocation.
    func measure(
        _ older: UnsafeBufferPointer<Double>, _ newer: UnsafeBufferPointer<Double>, spectrum: UnsafeBufferPointer<Double>
    ) -> ChannelQuality {
        let count = older.count + newer.count
        var quality = ChannelQuality()
        guard count > 0 else { return quality }
        // One pass: railed samples, mean and variance (about the first sample, for conditioning), and the running
        // moving average with the sums its straight line needs.
        let pivot = older.first ?? newer[0]
        var railed = 0
        var sum = 0.0
        var sumSquares = 0.0
        var running = 0.0
        var smoothCount = 0
        var smoothSum = 0.0
        var smoothIndexSum = 0.0
        func visit(_ value: Double, at position: Int, oldest: Double) {
            if abs(value) >= railLevel { railed += 1 }
            let centred = value - pivot
            sum += centred
            sumSquares += centred * centred
            running += centred
            if position >= smoothLength { running -= oldest - pivot }
            if position >= smoothLength - 1 {
                let mean = running / Double(smoothLength)
                smoothed[smoothCount] = mean
                smoothSum += mean
                smoothIndexSum += Double(smoothCount) * mean
                smoothCount += 1
            }
        }
        for position in 0..<count {
            let value = position < older.count ? older[position] : newer[position - older.count]
            let back = position - smoothLength
            let oldest = back < 0 ? 0 : (back < older.count ? older[back] : newer[back - older.count])
            visit(value, at: position, oldest: oldest)
        }
        let n = Double(count)
        quality.railedFraction = Double(railed) / n
        quality.variance = max(0, (sumSquares - sum * sum / n) / n)
        quality.slowSwing = Self.detrendedSwing(
            smoothed: UnsafeBufferPointer(rebasing: smoothed[0..<smoothCount]), sum: smoothSum,
            indexSum: smoothIndexSum)
        let total = Self.sum(spectrum, fullBins)
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

    /// Whether a channel's window can be used: not railed, not flat, and its analysis gave power.
    func isUsable(_ quality: ChannelQuality, referencePower: Double) -> Bool {
        quality.railedFraction <= thresholds.maxRailedFraction && quality.variance >= thresholds.flatVariance
            && referencePower > 0 && referencePower.isFinite
    }

    /// Peak-to-peak of the smoothed samples after their least-squares line is removed.
    private static func detrendedSwing(smoothed: UnsafeBufferPointer<Double>, sum: Double, indexSum: Double) -> Double {
        let m = Double(smoothed.count)
        guard smoothed.count >= 2 else { return 0 }
        // Least squares with a centred index c = i − (m − 1)/2: slope = Σ c·y / Σ c², intercept = mean.
        let centre = (m - 1) / 2
        let centredSum = indexSum - centre * sum
        let squares = m * (m * m - 1) / 12
        let slope = centredSum / squares
        let mean = sum / m
        var high = -Double.infinity
        var low = Double.infinity
        for i in 0..<smoothed.count {
            let residual = smoothed[i] - mean - slope * (Double(i) - centre)
            high = max(high, residual)
            low = min(low, residual)
        }
        return high - low
    }

    private static func sum(_ spectrum: UnsafeBufferPointer<Double>, _ bins: ClosedRange<Int>) -> Double {
        var total = 0.0
        for k in bins { total += spectrum[k] }
        return total
    }
}
