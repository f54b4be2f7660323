// AxonDSP — one channel window in, one scaled one-sided spectrum out: detrend → window → FFT → power.

import AxonMemory

/// Turns windows of one channel into one-sided power spectra, with every buffer allocated up front.
///
/// Each call to ``analyze(_:)-(UnsafeBufferPointer<Double>)`` copies `fftSize` samples into the FFT's aligned
/// input, removes the configured trend (``DetrendMode``), multiplies by the window (``WindowKind``), runs the
/// FFT and writes `fftSize / 2 + 1` scaled bins (``SpectrumScaling``) into its spectrum. The caller's samples are
/// never modified. ``peak(in:)`` and ``bandPower(in:)`` then read the band-limited results from that spectrum, and
/// ``withSpectrum(_:)`` lends it whole; ``grid`` maps bins to frequencies.
///
/// Cost model: ``init(_:)`` plans the FFT (≈60 ms with ``RealFFT/PlannerRigor/measure`` for 256 points — do it at
/// start-up, not on the real-time thread) and allocates everything. ``analyze(_:)-(UnsafeBufferPointer<Double>)``
/// allocates nothing and takes no lock: O(N log N), about a microsecond for 256 points.
///
/// Threading: a single-owner type; one thread at a time (typically the stream's processor thread). Not
/// `Sendable`. Use one analyzer per channel, or one per thread that processes channels in turn.
///
///     let analyzer = try SpectrumAnalyzer(.init(sampleRate: 250, fftSize: 256))
///     try analyzer.analyze(window)                             // 256 samples in µV
///     let alpha = try analyzer.peak(in: FrequencyBand(7, 13))  // alpha.frequency in Hz
public final class SpectrumAnalyzer {
    /// What a ``SpectrumAnalyzer`` computes. The defaults are the Brainiac headset's chain: 250 Hz, 256-point
    /// windows, mean removal, Hann window, power scaling, FFTW_MEASURE planning.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Configuration: Sendable, Hashable {
        /// The sample rate in hertz.
        public var sampleRate: Double
        /// Samples per window, which is also the FFT length.
        public var fftSize: Int
        /// The taper applied after detrending.
        public var window: WindowKind
        /// The trend removed before windowing.
        public var detrend: DetrendMode
        /// The unit of the analyzer's spectrum (``SpectrumAnalyzer/withSpectrum(_:)``).
        public var scaling: SpectrumScaling
        /// How hard FFTW plans at init (use ``RealFFT/PlannerRigor/estimate`` in tests).
        public var rigor: RealFFT.PlannerRigor

        /// Creates a configuration; every parameter has the Brainiac default.
        public init(
            sampleRate: Double = 250,
            fftSize: Int = 256,
            window: WindowKind = .hann,
            detrend: DetrendMode = .mean,
            scaling: SpectrumScaling = .power,
            rigor: RealFFT.PlannerRigor = .measure
        ) {
            self.sampleRate = sampleRate
            self.fftSize = fftSize
            self.window = window
            self.detrend = detrend
            self.scaling = scaling
            self.rigor = rigor
        }
    }

    /// The configuration this analyzer was built with.
    public let configuration: Configuration
    /// The frequency of each bin of the spectrum (``withSpectrum(_:)``).
    public let grid: FrequencyGrid
    /// The window's coefficients and gains.
    public let window: Window

    private let fft: RealFFT
    private let detrender: Detrender
    @usableFromInline let spectrumBins: OwnedBuffer<Double>
    /// Factor for the bins that stand for a positive and a negative frequency; DC and Nyquist get half of it.
    private let doubledScale: Double
    /// The trend removed from the last analysed window.
    public private(set) var lastTrend = LinearFit(intercept: 0, slope: 0)
    /// The window's own spectrum where it is not negligible: removing the mean `m` from `x` before the taper
    /// equals subtracting `m · W[k]` from the transform of the tapered `x`, and for the periodic cosine windows
    /// `W` is non-zero in only a few bins (Hann: 0 and 1), so the mean costs a few bins after the FFT instead of
    /// a second pass over the window before it.
    private let meanCorrection: OwnedBuffer<(bin: Int, re: Double, im: Double)>

    /// Builds the analyzer: validates the configuration, plans the FFT, precomputes the window and the detrend
    /// constants, and allocates the spectrum.
    ///
    /// - Throws: ``DSPError/invalidSampleRate(_:)``, ``DSPError/invalidSize(size:minimum:)`` (`fftSize < 2`), and
    ///   the FFT's set-up errors (``DSPError/plannerFailed(size:)``, ``DSPError/allocationFailed(elements:)``).
    /// - Complexity: one FFTW planning run plus O(N) set-up; takes the process-wide FFTW planner lock.
    public init(_ configuration: Configuration) throws(DSPError) {
        let grid = try FrequencyGrid(sampleRate: configuration.sampleRate, fftSize: configuration.fftSize)
        let window = try Window(configuration.window, length: configuration.fftSize)
        let detrender = try Detrender(mode: configuration.detrend, length: configuration.fftSize)
        let fft = try RealFFT(size: configuration.fftSize, rigor: configuration.rigor)
        switch configuration.scaling {
        case .power: self.doubledScale = 2 / (window.sum * window.sum)
        case .density: self.doubledScale = 2 / (configuration.sampleRate * window.sumOfSquares)
        }
        self.spectrumBins = OwnedBuffer(repeating: 0, count: grid.binCount)
        self.meanCorrection = OwnedBuffer(copying: Self.windowSpectrum(window, fft: fft))
        self.configuration = configuration
        self.grid = grid
        self.window = window
        self.detrender = detrender
        self.fft = fft
    }

    /// The bins of the window's transform whose magnitude exceeds 10⁻¹² of the largest.
    private static func windowSpectrum(_ window: Window, fft: RealFFT) -> [(bin: Int, re: Double, im: Double)] {
        let input = fft.input
        window.coefficients.withUnsafeBufferPointer { w in
            for n in 0..<input.count { input[n] = w[n] }
        }
        fft.execute()
        let bins = fft.output
        var largest = 0.0
        for (re, im) in bins { largest = max(largest, (re * re + im * im).squareRoot()) }
        return bins.indices.compactMap { k in
            let (re, im) = bins[k]
            return (re * re + im * im).squareRoot() > 1e-12 * largest ? (k, re, im) : nil
        }
    }

    /// Calls `body` with the spectrum of the last analysed window: ``FrequencyGrid/binCount`` values, bin `k` at
    /// `grid.frequency(ofBin: k)`, in the unit of the configured ``SpectrumScaling``; all zeros before the first
    /// analysis. The pointer is valid only inside `body`; copy the values out to keep them.
    ///
    ///     let strongest = analyzer.withSpectrum { $0.indices.max { a, b in $0[a] < $0[b] } }
    ///
    /// - Complexity: O(1); no allocation.
    @inlinable
    public func withSpectrum<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<Double>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try spectrumBins.withUnsafeBufferPointer(body)
    }

    /// Analyses one window of `fftSize` samples into the analyzer's spectrum (``withSpectrum(_:)``).
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `samples.count == fftSize` (the spectrum is
    ///   then unchanged).
    /// - Complexity: O(N log N); no allocation, no lock.
    public func analyze(_ samples: UnsafeBufferPointer<Double>) throws(DSPError) {
        try spectrumBins.withUnsafeMutableBufferPointer { (spectrum) throws(DSPError) in
            try analyze(samples, into: spectrum)
        }
    }

    /// Analyses one window of `fftSize` samples into the analyzer's spectrum; a non-allocating convenience over
    /// ``analyze(_:)-(UnsafeBufferPointer<Double>)``.
    public func analyze(_ samples: [Double]) throws(DSPError) {
        try samples.withUnsafeBufferPointer { (buffer) throws(DSPError) in try analyze(buffer) }
    }

    /// Analyses one window of `fftSize` samples into the caller's `destination` of
    /// ``FrequencyGrid/binCount`` values instead of the analyzer's spectrum (which is left as it was).
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` if `samples` or `destination` has the wrong length
    ///   (`destination` is then unchanged).
    /// - Complexity: O(N log N); no allocation, no lock.
    public func analyze(
        _ samples: UnsafeBufferPointer<Double>, into destination: UnsafeMutableBufferPointer<Double>
    ) throws(DSPError) {
        try analyze(samples, UnsafeBufferPointer(start: nil, count: 0), into: destination)
    }

    /// Analyses one window given in two consecutive pieces — the older and the newer part of a circular buffer —
    /// into `destination`, without first copying them into one buffer.
    ///
    /// With ``DetrendMode/mean`` or ``DetrendMode/none`` the pieces are read once: each sample is tapered into the
    /// FFT's input while the sum is taken, and the mean is removed afterwards from the few bins where the window's
    /// own spectrum lives (the transform is linear: `FFT((x − m)·w) = FFT(x·w) − m·FFT(w)`). The bins away from
    /// them carry a rounding error of order 10⁻¹⁶ of the offset's magnitude times √N.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless the pieces hold `fftSize` samples together
    ///   and `destination` holds ``FrequencyGrid/binCount`` values (`destination` is then unchanged).
    /// - Complexity: O(N log N); no allocation, no lock.
    public func analyze(
        _ older: UnsafeBufferPointer<Double>, _ newer: UnsafeBufferPointer<Double>,
        into destination: UnsafeMutableBufferPointer<Double>
    ) throws(DSPError) {
        let size = grid.fftSize
        guard older.count + newer.count == size else {
            throw .lengthMismatch(expected: size, actual: older.count + newer.count)
        }
        guard destination.count == grid.binCount else {
            throw .lengthMismatch(expected: grid.binCount, actual: destination.count)
        }
        let input = fft.input
        switch configuration.detrend {
        case .none, .mean:
            let total = window.coefficients.withUnsafeBufferPointer { w in
                Self.taper(older, w.baseAddress!, into: input.baseAddress!)
                    + Self.taper(newer, w.baseAddress! + older.count, into: input.baseAddress! + older.count)
            }
            let mean = configuration.detrend == .mean ? total / Double(size) : 0
            lastTrend = LinearFit(intercept: mean, slope: 0)
            fft.execute()
            writePower(into: destination, removing: mean)
            return
        case .linear:
            if let base = older.baseAddress { input.baseAddress!.update(from: base, count: older.count) }
            if let base = newer.baseAddress { (input.baseAddress! + older.count).update(from: base, count: newer.count) }
            lastTrend = try detrender.apply(to: input)
            try window.apply(to: input)
        }
        fft.execute()
        writePower(into: destination, removing: 0)
    }

    /// Writes `x[n] · w[n]` into `input` and returns `Σ x[n]` (four running sums, so the additions overlap).
    @inline(__always)
    private static func taper(
        _ samples: UnsafeBufferPointer<Double>, _ w: UnsafePointer<Double>, into input: UnsafeMutablePointer<Double>
    ) -> Double {
        guard let x = samples.baseAddress else { return 0 }
        let count = samples.count
        var partial = (0.0, 0.0, 0.0, 0.0)
        var n = 0
        while n + 4 <= count {
            partial.0 += x[n]
            partial.1 += x[n + 1]
            partial.2 += x[n + 2]
            partial.3 += x[n + 3]
            input[n] = x[n] * w[n]
            input[n + 1] = x[n + 1] * w[n + 1]
            input[n + 2] = x[n + 2] * w[n + 2]
            input[n + 3] = x[n + 3] * w[n + 3]
            n += 4
        }
        var total = (partial.0 + partial.1) + (partial.2 + partial.3)
        while n < count {
            total += x[n]
            input[n] = x[n] * w[n]
            n += 1
        }
        return total
    }

    /// The scaled one-sided power of the FFT's output, after subtracting `mean · W[k]` where the window's spectrum
    /// `W` lives.
    @inline(__always)
    private func writePower(into destination: UnsafeMutableBufferPointer<Double>, removing mean: Double) {
        let bins = fft.output
        let size = grid.fftSize
        let scale = doubledScale
        for k in 0..<grid.binCount {
            let (re, im) = bins[k]
            destination[k] = (re * re + im * im) * scale
        }
        if mean != 0 {
            for index in meanCorrection.indices {
                let correction = meanCorrection[index]
                let k = correction.bin
                let re = bins[k].0 - mean * correction.re
                let im = bins[k].1 - mean * correction.im
                destination[k] = (re * re + im * im) * scale
            }
        }
        // DC and Nyquist stand for one frequency each, not a positive and a negative one.
        destination[0] *= 0.5
        if size % 2 == 0 { destination[grid.binCount - 1] *= 0.5 }
    }

    /// The dominant frequency of the last analysed window inside `band`; see
    /// ``FrequencyGrid/peak(of:in:)-(UnsafeBufferPointer<Double>,_)``.
    ///
    /// - Throws: ``DSPError/bandOutOfRange(lower:upper:nyquist:)``, ``DSPError/emptyBand(lower:upper:binWidth:)``.
    /// - Complexity: O(bins in the band); no allocation.
    public func peak(in band: FrequencyBand) throws(DSPError) -> SpectralPeak {
        try spectrumBins.withUnsafeBufferPointer { (spectrum) throws(DSPError) in
            try grid.peak(of: spectrum, in: band)
        }
    }

    /// The mean-square power of the last analysed window inside `band`, in the input's unit squared (µV²).
    ///
    /// Computed as `Σ PSD[k] · Δf` over the bins whose centres lie in the band (edges inclusive): the bin sum of
    /// the spectrum divided by the window's ``Window/equivalentNoiseBandwidth`` for ``SpectrumScaling/power``, or
    /// multiplied by the bin width for ``SpectrumScaling/density``. For a sine of amplitude `A` whose whole main
    /// lobe is inside the band this reads `A²/2` for any window; with the rectangular window the band power of
    /// the full range `[0, fs/2]` is the mean square of the detrended input (Parseval).
    /// - Throws: ``DSPError/bandOutOfRange(lower:upper:nyquist:)``, ``DSPError/emptyBand(lower:upper:binWidth:)``.
    /// - Complexity: O(bins in the band); no allocation.
    public func bandPower(in band: FrequencyBand) throws(DSPError) -> Double {
        let total = try spectrumBins.withUnsafeBufferPointer { (spectrum) throws(DSPError) in
            try grid.bandSum(of: spectrum, in: band)
        }
        switch configuration.scaling {
        case .power: return total / window.equivalentNoiseBandwidth
        case .density: return total * grid.binWidth
        }
    }
}

/// `SpectrumAnalyzer` owns an FFT plan and scratch buffers used by every call: it is never `Sendable`.
@available(*, unavailable)
extension SpectrumAnalyzer: Sendable {}
