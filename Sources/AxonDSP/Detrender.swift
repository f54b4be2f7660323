// AxonDSP — removing the mean or the least-squares line from a window, allocation-free, via LAPACK.

import CLAPACKE

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
/// The ``DetrendMode/linear`` mode solves the least-squares problem `min ‖A·c − x‖₂` for the design matrix
/// `A = [1, n − (N−1)/2]` (centred time, so the columns are orthogonal and the problem well conditioned) with
/// LAPACK's QR-based `dgels`. Everything the solver needs — the design matrix, the working copies `dgels`
/// overwrites, and its workspace (sized by a workspace query) — is allocated at init. Each call copies the
/// pristine design matrix and the samples into the working copies and calls `LAPACKE_dgels_work`, which takes
/// caller-provided workspace. The column-major layout is used on purpose: LAPACKE's row-major path (and plain
/// `LAPACKE_dgels`) allocates transposed copies or workspace on every call, which the real-time path must not.
///
/// Threading: a single-owner type (it owns mutable scratch memory); one thread at a time. Not `Sendable`.
///
///     let detrender = try Detrender(mode: .linear, length: 256)
///     let fit = try detrender.apply(to: buffer)   // buffer now has zero mean and zero slope
/// - Complexity: ``apply(to:)`` is O(N) for every mode, with no allocation.
public final class Detrender {
    /// The mode applied by ``apply(to:)``.
    public let mode: DetrendMode
    /// The window length this detrender accepts.
    public let length: Int

    /// Pristine column-major N×2 design matrix: column 0 all ones, column 1 the centred sample index.
    private let design: UnsafeMutablePointer<Double>
    /// Working copy of the design matrix, overwritten by `dgels` with its QR factors.
    private let factors: UnsafeMutablePointer<Double>
    /// Right-hand side, overwritten by `dgels`: the first two entries become the coefficients.
    private let rhs: UnsafeMutablePointer<Double>
    /// `dgels` workspace and its length from the workspace query.
    private let workspace: UnsafeMutablePointer<Double>
    private let workspaceCount: Int
    /// `(N − 1) / 2`, the centre of the time axis.
    private let centre: Double

    /// Prepares a detrender for windows of `length` samples.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` if `length` is below 1 (2 for ``DetrendMode/linear``)
    ///   or beyond `Int32`; ``DSPError/lapackFailed(routine:info:)`` if the workspace query fails.
    /// - Complexity: O(N) time and memory, a few allocations (for ``DetrendMode/linear``).
    public init(mode: DetrendMode, length: Int) throws(DSPError) {
        let minimum = mode == .linear ? 2 : 1
        guard length >= minimum, length <= Int(Int32.max) / 2 else {
            throw .invalidSize(size: length, minimum: minimum)
        }
        let n = mode == .linear ? length : 0
        let centre = Double(length - 1) / 2
        let design = UnsafeMutablePointer<Double>.allocate(capacity: 2 * n)
        for i in 0..<n {
            design[i] = 1
            design[n + i] = Double(i) - centre
        }
        let factors = UnsafeMutablePointer<Double>.allocate(capacity: 2 * n)
        factors.initialize(repeating: 0, count: 2 * n)
        let rhs = UnsafeMutablePointer<Double>.allocate(capacity: n)
        rhs.initialize(repeating: 0, count: n)
        var count = 0
        if mode == .linear {
            var optimal = 0.0
            let info = LAPACKE_dgels_work(
                LAPACK_COL_MAJOR, CChar(UInt8(ascii: "N")), clapack_int(n), 2, 1,
                factors, clapack_int(n), rhs, clapack_int(n), &optimal, -1)
            guard info == 0 else {
                design.deallocate()
                factors.deallocate()
                rhs.deallocate()
                throw .lapackFailed(routine: "dgels (workspace query)", info: Int32(info))
            }
            count = max(1, Int(optimal))
        }
        let workspace = UnsafeMutablePointer<Double>.allocate(capacity: max(count, 1))
        workspace.initialize(repeating: 0, count: max(count, 1))
        self.mode = mode
        self.length = length
        self.design = design
        self.factors = factors
        self.rhs = rhs
        self.workspace = workspace
        self.workspaceCount = count
        self.centre = centre
    }

    deinit {
        design.deallocate()
        factors.deallocate()
        rhs.deallocate()
        workspace.deallocate()
    }

    /// Removes the mode's trend from `samples`, in place, and returns what was removed.
    ///
    /// Returns `(0, 0)` for ``DetrendMode/none``, `(mean, 0)` for ``DetrendMode/mean``, and the least-squares line
    /// for ``DetrendMode/linear``.
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `samples.count == length`;
    ///   ``DSPError/lapackFailed(routine:info:)`` if `dgels` reports a non-zero `info` (the samples are then
    ///   left unchanged).
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
            factors.update(from: design, count: 2 * length)
            rhs.update(from: base, count: length)
            let n = clapack_int(length)
            let info = LAPACKE_dgels_work(
                LAPACK_COL_MAJOR, CChar(UInt8(ascii: "N")), n, 2, 1,
                factors, n, rhs, n, workspace, clapack_int(workspaceCount))
            guard info == 0 else { throw .lapackFailed(routine: "dgels", info: Int32(info)) }
            let offset = rhs[0]
            let slope = rhs[1]
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
}

/// `Detrender` owns mutable scratch memory used by every call: it is never `Sendable`.
@available(*, unavailable)
extension Detrender: Sendable {}
