// AxonDSP — the mean periodogram of chosen windows, zero-padded: Welch's average over the windows a caller keeps.

/// The running mean of the one-sided power spectral densities of windows of `windowLength` samples, each with its
/// mean removed, tapered by a (periodic) Hann window and zero-padded to `windowLength · padding` points:
/// `P[k] = |X[k]|² / (fs · Σw²)`, doubled except at DC and Nyquist (SciPy's `periodogram` with `detrend="constant"`,
/// `scaling="density"`). Averaging the windows the engine kept (clean ones) is Welch's method over exactly those
/// windows; the padding interpolates the spectrum on a grid `padding` times finer, which the individual alpha
/// frequency's smoothing and peak search need (0.24 Hz at 250 Hz, 256 samples, padding 4).
///
/// Cost: ``init(sampleRate:windowLength:padding:maximumFrequency:)`` plans an FFT (estimate rigor) and allocates;
/// ``add(_:_:)`` allocates nothing: O(N log N) for N = `windowLength · padding`.
///
/// Threading: a single-owner type; one thread at a time. Not `Sendable`.
public final class AveragedPeriodogram {
    /// The grid of the padded spectrum.
    public let grid: FrequencyGrid
    /// Samples per window.
    public let windowLength: Int
    /// Windows added so far.
    public private(set) var count = 0
    /// The last bin accumulated (bins above it stay zero).
    public let lastBin: Int

    private let fft: RealFFT
    private let window: Window
    private var sums: [Double]

    /// Creates an empty average of the bins up to `maximumFrequency` hertz (all of them when `nil`): a caller that
    /// reads only low frequencies (the individual alpha frequency reads 1–40 Hz) skips the rest of the work.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` when `windowLength < 2` or `padding < 1`, and the FFT's
    ///   and grid's errors.
    public init(sampleRate: Double, windowLength: Int, padding: Int = 4, maximumFrequency: Double? = nil)
        throws(DSPError)
    {
        guard windowLength >= 2 else { throw .invalidSize(size: windowLength, minimum: 2) }
        guard padding >= 1 else { throw .invalidSize(size: padding, minimum: 1) }
        let size = windowLength * padding
        self.grid = try FrequencyGrid(sampleRate: sampleRate, fftSize: size)
        self.windowLength = windowLength
        self.fft = try RealFFT(size: size, rigor: .estimate)
        self.window = try Window(.hann, length: windowLength)
        self.sums = [Double](repeating: 0, count: grid.binCount)
        let grid = self.grid
        self.lastBin = maximumFrequency.map { min(grid.binCount - 1, Int(($0 / grid.binWidth).rounded(.up))) }
            ?? grid.binCount - 1
        fft.input.update(repeating: 0)
    }

    /// Adds one window given in two consecutive pieces (the older and newer part of a circular buffer, or one
    /// piece and an empty one).
    ///
    /// - Precondition: the pieces hold `windowLength` samples together.
    public func add(_ older: UnsafeBufferPointer<Double>, _ newer: UnsafeBufferPointer<Double> = .init(start: nil, count: 0)) {
        precondition(older.count + newer.count == windowLength)
        var total = 0.0
        for value in older { total += value }
        for value in newer { total += value }
        let mean = total / Double(windowLength)
        let input = fft.input
        window.coefficients.withUnsafeBufferPointer { w in
            for index in 0..<older.count { input[index] = (older[index] - mean) * w[index] }
            for index in 0..<newer.count { input[older.count + index] = (newer[index] - mean) * w[older.count + index] }
        }
        fft.execute()
        let scale = 1 / (grid.sampleRate * window.sumOfSquares)
        let output = fft.output
        let last = grid.binCount - 1
        sums.withUnsafeMutableBufferPointer { sums in
            for k in 0...lastBin {
                let (re, im) = output[k]
                let doubled = k == 0 || (k == last && grid.fftSize % 2 == 0) ? 1.0 : 2.0
                sums[k] += (re * re + im * im) * scale * doubled
            }
        }
        count += 1
    }

    /// Writes the mean spectrum so far into `destination` (``FrequencyGrid/binCount`` values; zeros before the first
    /// window), without allocating: for real-time loops that hand the average to another thread.
    ///
    /// - Precondition: `destination.count == grid.binCount`.
    public func copyMean(into destination: UnsafeMutableBufferPointer<Double>) {
        precondition(destination.count == grid.binCount)
        let scale = count == 0 ? 0 : 1 / Double(count)
        sums.withUnsafeBufferPointer { sums in
            for k in 0..<sums.count { destination[k] = sums[k] * scale }
        }
    }

    /// The mean spectrum so far (all zeros before the first window), in the input's unit squared per hertz.
    public var mean: [Double] {
        count == 0 ? sums : sums.map { $0 / Double(count) }
    }
}
