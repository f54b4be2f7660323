// AxonDSP — removing the mean or the least-squares line from a window, allocation-free, in closed form.

/// What a ``Detrender`` removes from each window before the spectrum is taken.
///
/// Threading: a plain value, `Sendable`.
public enum DetrendMode: String, Sendable, CaseIterable {
    /// Leave the samples as they are.
    case none
    /// Subtract the window's mean (removes the DC offset; EEG amplifiers have large ones).
    case mean
    /// Subtract the least-squares straight line (removes offset and slow drift).
    case linear
}

/// The straight line removed by a ``Detrender``: `x[n] ≈ intercept + slope · n`, with `n` the sample index in the
/// window (0-based) and `slope` in signal units per sample.
///
/// Threading: a plain value, `Sendable`.
public struct LinearFit: Sendable, Equatable {
    /// The fitted value at sample 0.
    public var intercept: Double
    /// The fitted change per sample.
    public var slope: Double

    /// Creates a fit from its intercept at sample 0 and its slope per sample.
    public init(intercept: Double, slope: Double) {
        self.intercept = intercept
        self.slope = slope
    }
}

/// Removes the mean or the least-squares line from windows of a fixed length, in place, without allocating.
///
/// The ``DetrendMode/linear`` mode fits `x[n] ≈ a + b · (n − c)` with the centred time axis `c = (N − 1) / 2`.
/// Centring makes the two columns of the design matrix `[1, n − c]` orthogonal, so the normal equations decouple
/// and the least-squares solution is two dot products: `a = Σx / N` (the mean) and
/// `b = Σ(n − c)·x / Σ(n − c)²`, where `Σ(n − c)² = N(N² − 1) / 12` is fixed by the length and computed at init.
/// No factorisation is needed, so nothing can fail at run time and nothing is allocated.
///
/// Threading: immutable after init and `Sendable`; ``apply(to:)`` may run on any thread, concurrently, on
/// different buffers.
///
///     let detrender = try Detrender(mode: .linear, length: 256)
///     let fit = try detrender.apply(to: buffer)   // buffer now has zero mean and zero slope
/// - Complexity: ``apply(to:)`` is O(N) for every mode, with no allocation.
public final class Detrender: Sendable {
    /// The mode applied by ``apply(to:)``.
    public let mode: DetrendMode
    /// The window length this detrender accepts.
    public let length: Int

    /// `(N − 1) / 2`, the centre of the time axis.
    private let centre: Double
    /// `1 / Σ(n − c)²` over the window (0 unless the mode is ``DetrendMode/linear``).
    private let inverseTimeSquares: Double

    /// Prepares a detrender for windows of `length` samples.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` if `length` is below 1 (2 for ``DetrendMode/linear``)
    ///   or beyond `Int32`.
    /// - Complexity: O(1); no allocation beyond the object.
    public init(mode: DetrendMode, length: Int) throws(DSPError) {
        let minimum = mode == .linear ? 2 : 1
        guard length >= minimum, length <= Int(Int32.max) / 2 else {
            throw .invalidSize(size: length, minimum: minimum)
        }
        let n = Double(length)
        self.mode = mode
        self.length = length
        self.centre = (n - 1) / 2
        // Σ_{n=0}^{N−1} (n − c)² = N(N² − 1)/12, exact in Double for every length accepted here.
        self.inverseTimeSquares = mode == .linear ? 12 / (n * (n * n - 1)) : 0
    }

    /// Removes the mode's trend from `samples`, in place, and returns what was removed.
    ///
    /// Returns `(0, 0)` for ``DetrendMode/none``, `(mean, 0)` for ``DetrendMode/mean``, and the least-squares line
    /// for ``DetrendMode/linear``.
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `samples.count == length` (the samples are
    ///   then left unchanged).
    /// - Complexity: O(N); no allocation.
    @discardableResult
    public func apply(to samples: UnsafeMutableBufferPointer<Double>) throws(DSPError) -> LinearFit {
        guard samples.count == length, let base = samples.baseAddress else {
            throw .lengthMismatch(expected: length, actual: samples.count)
        }
        switch mode {
        case .none:
            return LinearFit(intercept: 0, slope: 0)
        case .mean:
            let mean = Self.sum(base, count: length) / Double(length)
            for i in 0..<length { base[i] -= mean }
            return LinearFit(intercept: mean, slope: 0)
        case .linear:
            let offset = Self.sum(base, count: length) / Double(length)
            let slope = Self.centredMoment(base, count: length, centre: centre) * inverseTimeSquares
            for i in 0..<length { base[i] -= offset + slope * (Double(i) - centre) }
            return LinearFit(intercept: offset - slope * centre, slope: slope)
        }
    }
}

extension Detrender {
    /// `Σ values[0..<count]` with four independent accumulators, so that the additions pipeline instead of
    /// waiting on each other (a single running sum is latency-bound: ~4× slower for 256 samples).
    static func sum(_ values: UnsafePointer<Double>, count: Int) -> Double {
        var partial = (0.0, 0.0, 0.0, 0.0)
        var i = 0
        while i + 4 <= count {
            partial.0 += values[i]
            partial.1 += values[i + 1]
            partial.2 += values[i + 2]
            partial.3 += values[i + 3]
            i += 4
        }
        var total = (partial.0 + partial.1) + (partial.2 + partial.3)
        while i < count {
            total += values[i]
            i += 1
        }
        return total
    }

    /// `Σ (n − centre) · values[n]` over `0..<count`, with four independent accumulators as in ``sum(_:count:)``.
    static func centredMoment(_ values: UnsafePointer<Double>, count: Int, centre: Double) -> Double {
        var partial = (0.0, 0.0, 0.0, 0.0)
        var i = 0
        var t = -centre
        while i + 4 <= count {
            partial.0 += t * values[i]
            partial.1 += (t + 1) * values[i + 1]
            partial.2 += (t + 2) * values[i + 2]
            partial.3 += (t + 3) * values[i + 3]
            i += 4
            t += 4
        }
        var total = (partial.0 + partial.1) + (partial.2 + partial.3)
        while i < count {
            total += (Double(i) - centre) * values[i]
            i += 1
        }
        return total
    }
}
