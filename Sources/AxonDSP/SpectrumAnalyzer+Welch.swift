// AxonDSP — averaging the spectra of overlapping windows (Welch's method).

extension SpectrumAnalyzer {
    /// Averages the spectra of the overlapping `fftSize`-sample windows of `signal` into `destination` (Welch's
    /// method) and returns how many windows were averaged.
    ///
    /// Windows start at samples `0, hop, 2·hop, …` and only whole windows are used (trailing samples that do not
    /// fill a window are ignored, as in scipy's `welch`). Each window goes through the full chain of
    /// ``analyze(_:)-(UnsafeBufferPointer<Double>)``; `hop = fftSize / 2` is the usual 50 % overlap.
    /// The analyzer's spectrum (``withSpectrum(_:)``) is left holding the last window's spectrum and `destination` the
    /// mean, in the same unit.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` if `hop < 1` or `signal` is shorter than one window;
    ///   ``DSPError/lengthMismatch(expected:actual:)`` unless `destination.count == grid.binCount`.
    /// - Complexity: O(windows · N log N); no allocation.
    @discardableResult
    public func averageSpectrum(
        of signal: UnsafeBufferPointer<Double>, hop: Int, into destination: UnsafeMutableBufferPointer<Double>
    ) throws(DSPError) -> Int {
        let size = grid.fftSize
        let bins = grid.binCount
        guard hop >= 1 else { throw .invalidSize(size: hop, minimum: 1) }
        guard signal.count >= size, let base = signal.baseAddress else {
            throw .invalidSize(size: signal.count, minimum: size)
        }
        guard destination.count == bins else { throw .lengthMismatch(expected: bins, actual: destination.count) }
        var windows = 0
        var start = 0
        for k in 0..<bins { destination[k] = 0 }
        while start + size <= signal.count {
            try analyze(UnsafeBufferPointer(start: base + start, count: size))
            withSpectrum { last in
                for k in 0..<bins { destination[k] += last[k] }
            }
            windows += 1
            start += hop
        }
        let inverse = 1 / Double(windows)
        for k in 0..<bins { destination[k] *= inverse }
        return windows
    }
}
