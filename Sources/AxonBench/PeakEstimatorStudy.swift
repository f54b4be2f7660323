// AxonBench — how far per-window peak estimators land from a broad alpha peak on a 1/f slope.

import AxonDSP
import AxonStreams
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The synthetic benchmark behind the engine's choice of per-window dominant-frequency estimator
/// (`docs/eeg-engine.md`, "Choosing the peak estimator").
///
/// Each case is a realistic EEG spectrum: a 1/f^β background plus a Gaussian alpha bump five times the background
/// at its centre, `S(f) = f^−β + 5·c^−β·exp(−½((f − c)/σ)²)` with the bump's full width at half maximum
/// `2.3548·σ`. The truth is the maximum of `S` inside 7–13 Hz (found on a 0.0001 Hz grid): what a long-window
/// Welch spectrum converges to. Two figures per estimator:
///
/// - **Bias**: the estimator applied to the window's *expected* periodogram, `E[P(f)] = ∫ S(ν)·(|W(f − ν)|² +
///   |W(f + ν)|²) dν` (`W` the Hann window's transform, evaluated on a grid 64 times finer than the bins), minus
///   the truth. This is the estimator's systematic error on a broad peak under the window's smearing, free of the
///   window-to-window noise that averaging removes.
/// - **Spread**: the standard deviation of the estimate over windows of Gaussian noise with spectrum `S` (a sum of
///   sinusoids every 0.05 Hz up to 60 Hz with Gaussian coefficients), the noise a single window's value carries.
///
/// Threading: the functions are pure; call them from any thread.
public enum PeakEstimatorStudy {
    /// A per-window estimator of a band's dominant frequency.
    public enum Estimator: String, Sendable, CaseIterable {
        /// The engine's: the strongest local maximum in the band, refined by the vertex of a parabola through the
        /// log power of three bins (``AxonDSP/FrequencyGrid/localPeak(of:bins:in:above:)``).
        case logParabolic = "log-parabolic vertex (engine)"
        /// The same on the window zero-padded to twice its length (an FFT twice as long).
        case logParabolicPadded2 = "log-parabolic, zero-padded ×2"
        /// The same on the window zero-padded to four times its length.
        case logParabolicPadded4 = "log-parabolic, zero-padded ×4"
        /// The strongest local maximum, refined by a least-squares parabola through the log power of five bins (a
        /// Gaussian fit).
        case gaussianFiveBins = "Gaussian fit over 5 bins"
        /// The band's centre of gravity, `Σ f·P(f) / Σ P(f)` over its bins.
        case centreOfGravity = "band centre of gravity"

        /// The zero-padding factor the estimator's spectrum needs.
        public var padding: Int {
            switch self {
            case .logParabolicPadded2: 2
            case .logParabolicPadded4: 4
            default: 1
            }
        }

        /// The estimate from `spectrum` on `grid` inside `band`, or `nil` when the band holds no peak.
        public func estimate(_ spectrum: UnsafeBufferPointer<Double>, grid: FrequencyGrid, band: FrequencyBand)
            -> Double?
        {
            guard let range = try? grid.bins(in: band) else { return nil }
            switch self {
            case .logParabolic, .logParabolicPadded2, .logParabolicPadded4:
                return grid.localPeak(of: spectrum, bins: range, in: band)?.frequency
            case .centreOfGravity:
                var weighted = 0.0
                var total = 0.0
                for k in range {
                    weighted += grid.frequency(ofBin: k) * spectrum[k]
                    total += spectrum[k]
                }
                return total > 0 ? weighted / total : nil
            case .gaussianFiveBins:
                var best = -1
                for k in range where k >= 2 && k + 2 < grid.binCount {
                    guard spectrum[k] > spectrum[k - 1], spectrum[k] >= spectrum[k + 1] else { continue }
                    if best < 0 || spectrum[k] > spectrum[best] { best = k }
                }
                guard best >= 0 else { return nil }
                // Least squares of y = a + b·x + c·x² through x = −2…2: b = Σxy / 10, c = (Σx²y − 2Σy) / 14.
                var sumXY = 0.0
                var sumXXY = 0.0
                var sumY = 0.0
                for x in -2...2 {
                    let y = log(max(spectrum[best + x], .leastNormalMagnitude))
                    sumXY += Double(x) * y
                    sumXXY += Double(x * x) * y
                    sumY += y
                }
                let b = sumXY / 10
                let c = (sumXXY - 2 * sumY) / 14
                let offset = c < 0 ? min(2, max(-2, -b / (2 * c))) : 0
                let frequency = (Double(best) + offset) * grid.binWidth
                return frequency >= band.lower && frequency <= band.upper ? frequency : nil
            }
        }
    }

    /// One synthetic spectrum.
    public struct Case: Sendable, Hashable {
        /// Sample rate, Hz.
        public var sampleRate: Double
        /// Samples per window.
        public var windowSize: Int
        /// The background's exponent β.
        public var exponent: Double
        /// The bump's centre, Hz.
        public var centre: Double
        /// The bump's full width at half maximum, Hz.
        public var width: Double

        /// Creates a case.
        public init(sampleRate: Double, windowSize: Int, exponent: Double, centre: Double, width: Double) {
            self.sampleRate = sampleRate
            self.windowSize = windowSize
            self.exponent = exponent
            self.centre = centre
            self.width = width
        }

        /// The model spectrum at `frequency` (arbitrary unit).
        public func density(at frequency: Double) -> Double {
            let sigma = width / 2.3548
            let f = max(frequency, 0.5)
            let offset = (frequency - centre) / sigma
            return pow(f, -exponent) + 5 * pow(centre, -exponent) * exp(-0.5 * offset * offset)
        }

        /// The maximum of ``density(at:)`` inside `band`.
        public func truePeak(in band: FrequencyBand) -> Double {
            var best = band.lower
            var frequency = band.lower
            while frequency <= band.upper {
                if density(at: frequency) > density(at: best) { best = frequency }
                frequency += 0.0001
            }
            return best
        }
    }

    /// The figures of one estimator over a set of cases.
    public struct Row: Sendable, Hashable {
        /// The estimator.
        public var estimator: Estimator
        /// The largest |bias| over the cases whose bump is at least 1 Hz wide, Hz.
        public var worstBiasWide: Double
        /// The largest |bias| over all cases, Hz.
        public var worstBias: Double
        /// The mean |bias|, Hz.
        public var meanBias: Double
        /// The mean of the per-case standard deviations over noisy windows, Hz (`nil` when not measured).
        public var spread: Double?
        /// Cases in which the estimator found no peak on the expected spectrum.
        public var misses: Int
    }

    /// The expected periodogram of a Hann window of `windowSize` samples, zero-padded to `windowSize · padding`,
    /// of a process with spectrum `model.density`: one value per bin of the padded grid.
    ///
    /// Only the bins within `around` (and three of the unpadded window's bins either side) are computed from the
    /// integral, the rest hold the model's density: the estimators look at nothing else.
    public static func expectedPeriodogram(_ model: Case, padding: Int, around band: FrequencyBand? = nil)
        throws(DSPError) -> [Double]
    {
        let n = model.windowSize
        let fine = 64
        let kernelSize = n * fine
        let fft = try RealFFT(size: kernelSize, rigor: .estimate)
        let window = try Window(.hann, length: n)
        fft.input.update(repeating: 0)
        for index in 0..<n { fft.input[index] = window.coefficients[index] }
        fft.execute()
        // |W(δ)|² at δ = j·fs/(n·64); the real window's transform is symmetric, |W(−δ)| = |W(δ)|.
        let kernel = fft.output.map { $0.0 * $0.0 + $0.1 * $0.1 }
        func squaredWindow(at j: Int) -> Double {
            let folded = abs(j) % kernelSize
            let index = folded <= kernelSize / 2 ? folded : kernelSize - folded
            return kernel[index]
        }
        let step = model.sampleRate / Double(kernelSize)
        let density = (1..<(kernelSize / 2)).map { model.density(at: Double($0) * step) }
        let padded = n * padding
        let binCount = padded / 2 + 1
        let ratio = fine / padding  // fine-grid steps per padded bin
        var spectrum = [Double](repeating: 0, count: binCount)
        let binWidth = model.sampleRate / Double(padded)
        let margin = 3 * model.sampleRate / Double(n)
        for k in 0..<binCount {
            if let band, Double(k) * binWidth < band.lower - margin || Double(k) * binWidth > band.upper + margin {
                spectrum[k] = model.density(at: Double(k) * binWidth)
                continue
            }
            let centre = k * ratio
            var total = 0.0
            for (offset, value) in density.enumerated() {
                let nu = offset + 1
                total += value * (squaredWindow(at: centre - nu) + squaredWindow(at: centre + nu))
            }
            spectrum[k] = total * step
        }
        return spectrum
    }

    /// Runs every estimator on `cases` (and on `noisyCases` for the spread, `windows` noisy windows each), inside
    /// `band` (default 7–13 Hz).
    public static func run(
        cases: [Case], noisyCases: [Case] = [], windows: Int = 200, band requested: FrequencyBand? = nil,
        seed: UInt64 = 1
    ) throws(DSPError) -> [Row] {
        let band: FrequencyBand
        if let requested { band = requested } else { band = try alphaBand() }
        var errors: [Estimator: [(error: Double?, wide: Bool)]] = [:]
        for model in cases {
            let truth = model.truePeak(in: band)
            for padding in Set(Estimator.allCases.map(\.padding)) {
                let spectrum = try expectedPeriodogram(model, padding: padding, around: band)
                let grid = try FrequencyGrid(sampleRate: model.sampleRate, fftSize: model.windowSize * padding)
                for estimator in Estimator.allCases where estimator.padding == padding {
                    let value = spectrum.withUnsafeBufferPointer { estimator.estimate($0, grid: grid, band: band) }
                    errors[estimator, default: []].append((value.map { $0 - truth }, model.width >= 1))
                }
            }
        }
        var spreads: [Estimator: [Double]] = [:]
        var generator = SplitMix64(seed: seed)
        for model in noisyCases {
            let estimates = try noisyEstimates(model, windows: windows, band: band, generator: &generator)
            for (estimator, values) in estimates where values.count > 1 {
                let mean = values.reduce(0, +) / Double(values.count)
                let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
                spreads[estimator, default: []].append(variance.squareRoot())
            }
        }
        return Estimator.allCases.map { estimator in
            let all = errors[estimator] ?? []
            let found = all.compactMap { $0.error.map(abs) }
            let wide = all.filter(\.wide).compactMap { $0.error.map(abs) }
            let spread = spreads[estimator].map { $0.reduce(0, +) / Double($0.count) }
            return Row(
                estimator: estimator, worstBiasWide: wide.max() ?? .nan, worstBias: found.max() ?? .nan,
                meanBias: found.isEmpty ? .nan : found.reduce(0, +) / Double(found.count), spread: spread,
                misses: all.count - found.count)
        }
    }

    /// Every estimator's estimates on the same `windows` windows of Gaussian noise with spectrum `model.density`
    /// (windows with no peak left out).
    static func noisyEstimates(
        _ model: Case, windows: Int, band: FrequencyBand, generator: inout SplitMix64
    ) throws(DSPError) -> [Estimator: [Double]] {
        let n = model.windowSize
        let paddings = Set(Estimator.allCases.map(\.padding)).sorted()
        var analyzers: [Int: SpectrumAnalyzer] = [:]
        for padding in paddings {
            analyzers[padding] = try SpectrumAnalyzer(
                .init(sampleRate: model.sampleRate, fftSize: n * padding, window: .rectangular, detrend: .none,
                      rigor: .estimate))
        }
        let hann = try Window(.hann, length: n)
        let spacing = 0.05
        let components = Array(stride(from: spacing, through: 60, by: spacing))
        let amplitudes = components.map { (model.density(at: $0) * spacing).squareRoot() }
        // cos and sin of every component at every sample, component-major.
        var cosines = [Double](repeating: 0, count: components.count * n)
        var sines = [Double](repeating: 0, count: components.count * n)
        for (component, frequency) in components.enumerated() {
            let omega = 2 * Double.pi * frequency / model.sampleRate
            for index in 0..<n {
                cosines[component * n + index] = cos(omega * Double(index))
                sines[component * n + index] = sin(omega * Double(index))
            }
        }
        var signal = [Double](repeating: 0, count: n)
        var estimates: [Estimator: [Double]] = [:]
        for _ in 0..<windows {
            for index in 0..<n { signal[index] = 0 }
            for component in components.indices {
                let a = amplitudes[component] * generator.gaussian()
                let b = amplitudes[component] * generator.gaussian()
                let base = component * n
                for index in 0..<n { signal[index] += a * cosines[base + index] + b * sines[base + index] }
            }
            let mean = signal.reduce(0, +) / Double(n)
            for padding in paddings {
                var window = [Double](repeating: 0, count: n * padding)
                for index in 0..<n { window[index] = (signal[index] - mean) * hann.coefficients[index] }
                let analyzer = analyzers[padding]!
                try analyzer.analyze(window)
                for estimator in Estimator.allCases where estimator.padding == padding {
                    let estimate = analyzer.withSpectrum {
                        estimator.estimate($0, grid: analyzer.grid, band: band)
                    }
                    if let value = estimate {
                        estimates[estimator, default: []].append(value)
                    }
                }
            }
        }
        return estimates
    }

    /// The standard grid of cases: 250 and 256 Hz at 256 samples, 500 Hz and 250 Hz at 512; β 0.5–2; centres
    /// 8–12.5 Hz every 0.25 Hz; widths 0.5–2.5 Hz.
    public static func standardCases(windowSizes: Set<Int> = [256, 512]) -> [Case] {
        let setups: [(Double, Int)] = [(250, 256), (256, 256), (500, 512), (250, 512)]
        var cases: [Case] = []
        for (rate, size) in setups where windowSizes.contains(size) {
            for exponent in [0.5, 1, 1.5, 2] {
                for centre in stride(from: 8.0, through: 12.5, by: 0.25) {
                    for width in [0.5, 1, 1.5, 2, 2.5] {
                        cases.append(Case(sampleRate: rate, windowSize: size, exponent: exponent, centre: centre, width: width))
                    }
                }
            }
        }
        return cases
    }
}

extension PeakEstimatorStudy {
    /// 7–13 Hz, the SDK's alpha band.
    static func alphaBand() throws(DSPError) -> FrequencyBand { try FrequencyBand(7, 13) }

    /// The rows as the Markdown table `docs/eeg-engine.md` shows.
    public static func table(_ rows: [Row]) -> String {
        func hertz(_ value: Double?) -> String {
            guard let value, !value.isNaN else { return "–" }
            return String(format: "%.3f Hz", value)
        }
        var lines = [
            "| estimator | worst bias, width ≥ 1 Hz | worst bias, all | mean bias | spread (1 window) | no peak |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in rows {
            lines.append(
                "| \(row.estimator.rawValue) | \(hertz(row.worstBiasWide)) | \(hertz(row.worstBias)) | "
                    + "\(hertz(row.meanBias)) | \(hertz(row.spread)) | \(row.misses) |")
        }
        return lines.joined(separator: "\n")
    }
}

extension PeakEstimatorStudy {
    /// What the engine's peak rules cost per hop, measured in one run (ratios, since absolute figures move between
    /// machines): the hop without the 1/f background fit (as before it existed) and with it, and the zero-padded
    /// FFTs that gathering the individual alpha frequency adds per hop when every channel's window is clean.
    public struct HopCost: Sendable, Hashable {
        /// Median nanoseconds per hop with ``AxonEEG/EEGEngine/Configuration/peakProminence`` 0.
        public var withoutBackground: Double
        /// Median nanoseconds per hop with the default prominence (the background fitted every window).
        public var withBackground: Double
        /// Median nanoseconds to add one window of every channel to an ``AxonDSP/AveragedPeriodogram``.
        public var alphaWindows: Double
        /// Hops whose spectra were not one per hop (0 when the measurement is sound).
        public var irregularHops: Int
        /// The median over rounds of each round's with ÷ without ratio: timed side by side, so a slow spell of the
        /// machine touches both sides of a ratio alike.
        public var medianRatio: Double
    }

    /// Measures ``HopCost`` for `workload`, the two engines' hops interleaved over `rounds` rounds.
    public static func hopCost(_ workload: BenchWorkload, timing: RepeatedTiming, rounds: Int = 25) throws(BenchError)
        -> HopCost
    {
        let before = try HopMeasurement(workload, peakProminence: 0)
        let after = try HopMeasurement(workload)
        let periodogram: AveragedPeriodogram
        do {
            periodogram = try AveragedPeriodogram(
                sampleRate: Double(workload.sampleRate), windowLength: workload.windowSize, maximumFrequency: 41)
        } catch { throw .setupFailed("averaged periodogram", cause: error) }
        let signal = BenchSignal(workload)
        let window = (0..<workload.windowSize).map { signal.values[$0 * workload.channels] }
        var beforeTimes: [Double] = []
        var afterTimes: [Double] = []
        var alphaTimes: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<rounds {
            let a = before.timeHops(timing)
            let b = after.timeHops(timing)
            beforeTimes += a
            afterTimes += b
            ratios.append(RepeatedTiming.median(b) / RepeatedTiming.median(a))
            alphaTimes += window.withUnsafeBufferPointer { samples in
                timing.measure { count in
                    for _ in 0..<(count * workload.channels) { periodogram.add(samples) }
                }.nanosecondsPerRepetition
            }
        }
        let a = before.result(nanosecondsPerHop: beforeTimes)
        let b = after.result(nanosecondsPerHop: afterTimes)
        return HopCost(
            withoutBackground: a.nanoseconds, withBackground: b.nanoseconds,
            alphaWindows: RepeatedTiming.median(alphaTimes),
            irregularHops: (a.spectraPerHop == 1 ? 0 : 1) + (b.spectraPerHop == 1 ? 0 : 1),
            medianRatio: RepeatedTiming.median(ratios))
    }
}
