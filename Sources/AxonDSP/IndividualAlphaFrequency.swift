// AxonDSP — the individual alpha frequency (peak and centre of gravity) of averaged spectra, as researchers report it.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The individual alpha frequency (IAF) of one or more channels' averaged power spectra, by the published procedure
/// of Corcoran et al. 2018 (Psychophysiology 55:e13064, the `restingIAF` method): the peak alpha frequency (PAF)
/// and the alpha centre of gravity (CoG, Klimesch's mean frequency), per channel and pooled over channels.
///
/// Per channel, on the spectrum between 1 and 40 Hz divided by its mean:
/// 1. A straight line fitted to log10 of it; a peak counts only if it stands above the line by one standard error
///    of prediction (the 1/f background is not a rhythm).
/// 2. Savitzky–Golay smoothing (11 points, degree 5) and its first and second derivatives.
/// 3. Candidates: downward zero crossings of the first derivative from just below to just above 7–13 Hz. The
///    strongest is the PAF if it clears the threshold and is more than 1/(1 − 0.2) times the runner-up; else "no
///    PAF" (``ChannelEstimate/reason``).
/// 4. The alpha window's bounds f1, f2: the nearest minimum or start of a shallow stretch (|slope| < 1 per Hz for
///    1 Hz) below the lowest and above the highest substantial peak.
/// 5. Pooled: the PAF weighted by each channel's peak quality (the smoothed spectrum's area between its inflection
///    points, per bin); the bounds averaged over channels into one window; each channel's CoG over that window,
///    averaged over all channels. Fewer than `minimumChannels` channels with a PAF (with bounds) gives no pooled PAF
///    (CoG).
///
/// Deviations from `restingIAF` v1.0.3 (`docs/eeg-engine.md` has the reasons): the spectra are the caller's (the
/// engine's windows, zero-padded); the shallow-slope test uses |slope|; the smoothing's ends are fitted, not
/// zero-padded; the true bin spacing scales the derivatives.
///
/// Threading: a plain value, `Sendable`; ``estimate(spectra:grid:)`` is a pure function.
public struct IndividualAlphaFrequency: Sendable, Hashable {
    /// The method's parameters; the defaults are the published ones.
    public struct Parameters: Sendable, Hashable {
        /// The range the background line is fitted over and the spectrum normalised over, Hz.
        public var fitRange: ClosedRange<Double> = 1...40
        /// The alpha search window, Hz.
        public var alphaWindow: ClosedRange<Double> = 7...13
        /// Savitzky–Golay frame width in bins (odd).
        public var frameWidth = 11
        /// Savitzky–Golay polynomial degree.
        public var order = 5
        /// Standard errors of prediction above the background line a peak must reach.
        public var minimumPower = 1.0
        /// The runner-up must be below `(1 − peakDifference)` of the strongest peak.
        public var peakDifference = 0.2
        /// Channels with a PAF (with bounds) needed for the pooled PAF (CoG); `nil`: min(3, channels).
        public var minimumChannels: Int?

        /// The published parameters.
        public init() {}
    }

    /// One channel's estimate.
    public struct ChannelEstimate: Sendable, Hashable, Codable {
        /// The peak alpha frequency, Hz (a bin frequency), or `nil`.
        public var peak: Double?
        /// The centre of gravity over the pooled alpha window, Hz, or `nil` when no channel gave bounds.
        public var centreOfGravity: Double?
        /// The channel's own alpha window bounds, Hz.
        public var lowerBound: Double?
        /// The channel's own alpha window bounds, Hz.
        public var upperBound: Double?
        /// The peak-quality weight (area between the inflection points per bin), or `nil`.
        public var quality: Double?
        /// Why there is no PAF, when there is none.
        public var reason: String?
    }

    /// The estimate over channels.
    public struct Estimate: Sendable, Hashable, Codable {
        /// Per channel, in the order given.
        public var channels: [ChannelEstimate]
        /// The pooled peak alpha frequency, Hz, or `nil`.
        public var peak: Double?
        /// The pooled centre of gravity, Hz, or `nil`.
        public var centreOfGravity: Double?
        /// The pooled alpha window the CoG is taken over, Hz.
        public var window: ClosedRange<Double>?
    }

    /// The parameters.
    public let parameters: Parameters
    private let filter: SavitzkyGolay

    /// Creates an estimator.
    ///
    /// - Throws: the errors of ``SavitzkyGolay/init(frameWidth:order:)``.
    public init(_ parameters: Parameters = Parameters()) throws(DSPError) {
        self.parameters = parameters
        self.filter = try SavitzkyGolay(frameWidth: parameters.frameWidth, order: parameters.order)
    }

    /// The estimate from each channel's averaged spectrum on `grid` (any scaling: each is divided by its mean).
    public func estimate(spectra: [[Double]], grid: FrequencyGrid) -> Estimate {
        let channels = spectra.map { analyse($0, grid: grid) }
        let minimum = parameters.minimumChannels ?? min(3, spectra.count)
        // Pooled PAF: weighted by peak quality relative to the best.
        var peak: Double?
        let withPeak = channels.compactMap { $0.estimate.peak }
        if withPeak.count >= minimum, !withPeak.isEmpty {
            let qualities = channels.compactMap { $0.estimate.peak != nil ? $0.estimate.quality : nil }
            if let best = qualities.max(), best > 0 {
                var weighted = 0.0
                var total = 0.0
                for channel in channels {
                    guard let value = channel.estimate.peak, let quality = channel.estimate.quality else { continue }
                    weighted += quality / best * value
                    total += quality / best
                }
                if total > 0 { peak = weighted / total }
            }
        }
        // The pooled window: the channels' bounds averaged, snapped to the nearest bin.
        let bounded = channels.filter { $0.estimate.lowerBound != nil && $0.estimate.upperBound != nil }
        var result = Estimate(channels: channels.map(\.estimate), peak: peak, centreOfGravity: nil, window: nil)
        guard let frequencies = channels.first(where: { !$0.frequencies.isEmpty })?.frequencies, !bounded.isEmpty
        else { return result }
        let lower = bounded.map { $0.estimate.lowerBound! }.reduce(0, +) / Double(bounded.count)
        let upper = bounded.map { $0.estimate.upperBound! }.reduce(0, +) / Double(bounded.count)
        let a = Self.nearestBin(frequencies, lower)
        let b = Self.nearestBin(frequencies, upper)
        guard a <= b else { return result }
        result.window = frequencies[a]...frequencies[b]
        var gravities: [Double] = []
        for (index, channel) in channels.enumerated() where !channel.smoothed.isEmpty {
            var weighted = 0.0
            var total = 0.0
            for bin in a...b {
                weighted += channel.smoothed[bin] * frequencies[bin]
                total += channel.smoothed[bin]
            }
            let gravity = weighted / total
            result.channels[index].centreOfGravity = gravity
            gravities.append(gravity)
        }
        if bounded.count >= minimum, !gravities.isEmpty {
            result.centreOfGravity = gravities.reduce(0, +) / Double(gravities.count)
        }
        return result
    }

    /// One channel worked through: its estimate, the truncated frequencies and the smoothed normalised spectrum.
    private struct Channel {
        var estimate: ChannelEstimate
        var frequencies: [Double] = []
        var smoothed: [Double] = []
    }

    private func analyse(_ spectrum: [Double], grid: FrequencyGrid) -> Channel {
        let all = (0..<spectrum.count).map { grid.frequency(ofBin: $0) }
        let lo = Self.nearestBin(all, parameters.fitRange.lowerBound)
        let hi = Self.nearestBin(all, parameters.fitRange.upperBound)
        guard spectrum.count == grid.binCount, hi - lo + 1 >= parameters.frameWidth,
            spectrum[lo...hi].allSatisfy({ $0.isFinite && $0 > 0 })
        else { return Channel(estimate: ChannelEstimate(reason: "no usable spectrum")) }
        let f = Array(all[lo...hi])
        let mean = spectrum[lo...hi].reduce(0, +) / Double(hi - lo + 1)
        let p = spectrum[lo...hi].map { $0 / mean }
        let n = p.count
        let spacing = f[1] - f[0]
        let threshold = Self.minimumPower(f, p, standardErrors: parameters.minimumPower)
        let d0 = filter.apply(to: p, derivative: 0, spacing: spacing)
        let d1 = filter.apply(to: p, derivative: 1, spacing: spacing)
        let d2 = filter.apply(to: p, derivative: 2, spacing: spacing)
        var channel = Channel(estimate: ChannelEstimate(), frequencies: f, smoothed: d0)

        // Candidates: downward zero crossings of the slope, scanned from one bin below to one above the window.
        let la = Self.nearestBin(f, parameters.alphaWindow.lowerBound)
        let ua = Self.nearestBin(f, parameters.alphaWindow.upperBound)
        var candidates: [Int] = []
        for k in max(0, la - 1)...min(n - 2, ua + 1) where Self.sign(d1[k]) > Self.sign(d1[k + 1]) {
            candidates.append(d0[k] >= d0[k + 1] ? k : k + 1)
        }
        guard !candidates.isEmpty else {
            channel.estimate.reason = "no local maximum in the alpha window"
            return channel
        }
        let byPower = candidates.enumerated().sorted {
            d0[$0.element] != d0[$1.element] ? d0[$0.element] > d0[$1.element] : $0.offset < $1.offset
        }.map(\.element)
        let top = byPower[0]
        guard log10(d0[top]) > threshold[top] else {
            channel.estimate.reason = "no peak above the 1/f background"
            return channel
        }
        if byPower.count >= 2, !(d0[top] * (1 - parameters.peakDifference) > d0[byPower[1]]) {
            channel.estimate.reason = "two peaks of similar power"
        } else {
            channel.estimate.peak = f[top]
        }

        // Bounds: below the lowest and above the highest substantial peak.
        let run = max(2, Int((1 / spacing).rounded()))
        func shallow(_ k: Int) -> Bool {
            guard k + run < n, abs(d1[k]) < 1 else { return false }
            for j in 0..<run where !(abs(d1[k + 1 + j]) < 1) { return false }
            return true
        }
        func minimumNear(_ k: Int) -> Int {
            var best = k - 1
            for bin in k...(k + 1) where d0[bin] < d0[best] { best = bin }
            return best
        }
        func substantial(_ ordered: [Int]) -> Int {
            guard candidates.count >= 2, let first = ordered.first else { return top }
            return ordered.first { log10(d0[$0]) > threshold[first] || d0[$0] > 0.5 * d0[top] } ?? top
        }
        let ascending = candidates.enumerated().sorted { f[$0.element] != f[$1.element] ? $0.element < $1.element : $0.offset < $1.offset }.map(\.element)
        let descending = candidates.enumerated().sorted { f[$0.element] != f[$1.element] ? $0.element > $1.element : $0.offset < $1.offset }.map(\.element)
        let left = substantial(ascending)
        let right = substantial(descending)
        var lower: Int?
        if left >= 2 {
            for k in 1..<left {
                if Self.sign(d1[k]) < Self.sign(d1[k + 1]) { lower = minimumNear(k) } else if shallow(k) { lower = k }
            }
        }
        var upper: Int?
        if right + 1 <= n - 1 - run {
            for k in (right + 1)...(n - 1 - run) {
                if Self.sign(d1[k]) < Self.sign(d1[k + 1]) {
                    upper = minimumNear(k)
                    break
                }
                if shallow(k) {
                    upper = k
                    break
                }
            }
        }
        if let lower, let upper {
            channel.estimate.lowerBound = f[lower]
            channel.estimate.upperBound = f[upper]
        }

        // Peak quality: the smoothed spectrum's area between the inflection points around the peak, per bin.
        if channel.estimate.peak != nil {
            var below: Int?
            for k in 0..<top where Self.sign(d2[k]) > Self.sign(d2[k + 1]) {
                below = abs(d2[k]) <= abs(d2[k + 1]) ? k : k + 1
            }
            var above: Int?
            if top + 1 <= n - 2 {
                for k in (top + 1)...(n - 2) where Self.sign(d2[k]) < Self.sign(d2[k + 1]) {
                    above = abs(d2[k]) <= abs(d2[k + 1]) ? k : k + 1
                    break
                }
            }
            if let below, let above, above > below {
                var area = 0.0
                for i in below..<above { area += 0.5 * (d0[i] + d0[i + 1]) * spacing }
                channel.estimate.quality = area / Double(above - below)
            }
        }
        return channel
    }

    /// The line fitted to log10 of `p` over `f`, plus `standardErrors` standard errors of prediction, per bin.
    static func minimumPower(_ f: [Double], _ p: [Double], standardErrors: Double) -> [Double] {
        let n = Double(f.count)
        let y = p.map { log10($0) }
        let meanF = f.reduce(0, +) / n
        let meanY = y.reduce(0, +) / n
        var sxx = 0.0
        var sxy = 0.0
        for i in f.indices {
            sxx += (f[i] - meanF) * (f[i] - meanF)
            sxy += (f[i] - meanF) * (y[i] - meanY)
        }
        let slope = sxy / sxx
        let intercept = meanY - slope * meanF
        var residuals = 0.0
        for i in f.indices {
            let r = y[i] - intercept - slope * f[i]
            residuals += r * r
        }
        let s = (residuals / (n - 2)).squareRoot()
        return f.map { x in
            intercept + slope * x + standardErrors * s * (1 + 1 / n + (x - meanF) * (x - meanF) / sxx).squareRoot()
        }
    }

    /// The index of the value nearest `x` (ties: the lower index).
    static func nearestBin(_ frequencies: [Double], _ x: Double) -> Int {
        var best = 0
        for index in frequencies.indices where abs(frequencies[index] - x) < abs(frequencies[best] - x) { best = index }
        return best
    }

    static func sign(_ value: Double) -> Int { value > 0 ? 1 : (value < 0 ? -1 : 0) }
}
