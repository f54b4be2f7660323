// AxonDSP — the Moore–Penrose pseudo-inverse of small square matrices via LAPACK's SVD, allocation-free per call.

import AxonMemory
import CLAPACKE

/// The Moore–Penrose pseudo-inverse `A⁺` of real `order × order` matrices, from the singular value decomposition
/// `A = U · Σ · Wᵀ` computed by LAPACK's `dgesvd`: `A⁺ = W · Σ⁺ · Uᵀ`, where `Σ⁺` inverts the singular values above
/// a tolerance and zeroes the rest. It is the least-squares, minimum-norm inverse: it exists for singular and
/// rank-deficient matrices (a matrix with zeroed rows, as in artifact subspace reconstruction) and equals `A⁻¹`
/// for an invertible one.
///
/// Matrices are column-major (`a[row + column · order]`). The working copy `dgesvd` destroys, `U`, `Wᵀ`, the
/// singular values and the workspace (sized by a workspace query) are allocated at init, in one
/// ``AxonMemory/OwnedBuffer`` freed with the object; each call goes through
/// `LAPACKE_dgesvd_work` in column-major layout, which passes the caller's memory straight to LAPACK.
///
/// Threading: a single-owner type (it owns mutable scratch memory); one thread at a time. Not `Sendable`.
///
///     let pinv = try PseudoInverse(order: 2)
///     var inverse = [Double](repeating: 0, count: 4)
///     let rank = try pinv.compute([1, 0, 0, 0], into: &inverse)   // rank 1, inverse == [1, 0, 0, 0]
/// - Complexity: ``compute(_:into:tolerance:)-(UnsafePointer<Double>,_,_)`` is O(n³); no allocation.
public final class PseudoInverse {
    /// The matrix order `n` this object accepts.
    public let order: Int

    /// The reals, one after another: the working copy (`n²`), the singular values (`n`), `U` (`n²`), `Wᵀ` (`n²`)
    /// and the workspace (`workCount`).
    @usableFromInline let reals: OwnedBuffer<Double>
    private let workCount: Int

    /// Prepares for `order × order` matrices.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` if `order` is below 1 or above 4096;
    ///   ``DSPError/lapackFailed(routine:info:)`` if the workspace query fails.
    /// - Complexity: O(n²) memory, a few allocations.
    public init(order: Int) throws(DSPError) {
        guard order >= 1, order <= 4096 else { throw .invalidSize(size: order, minimum: 1) }
        let n = order
        var optimal = 0.0
        var probe = [Double](repeating: 0, count: 4 * n * n + n)
        let info = probe.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            return LAPACKE_dgesvd_work(
                LAPACK_COL_MAJOR, CChar(UInt8(ascii: "A")), CChar(UInt8(ascii: "A")), clapack_int(n), clapack_int(n),
                base, clapack_int(n), base + n * n, base + n * n + n, clapack_int(n), base + 2 * n * n + n,
                clapack_int(n), &optimal, -1)
        }
        guard info == 0 else { throw .lapackFailed(routine: "dgesvd (workspace query)", info: Int32(info)) }
        // dgesvd's documented minimum for a square matrix is 5n.
        workCount = max(Int(optimal), 5 * n)
        self.order = n
        reals = OwnedBuffer(repeating: 0, count: 3 * n * n + n + workCount)
    }

    /// Calls `body` with the singular values of the last matrix passed to
    /// ``compute(_:into:tolerance:)-(UnsafePointer<Double>,_,_)``, descending. The pointer is valid only inside
    /// `body`.
    ///
    /// - Complexity: O(1); no allocation.
    @inlinable
    public func withSingularValues<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<Double>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let (start, n) = (order * order, order)
        return try reals.withUnsafeBufferPointer { (reals) throws(Failure) in
            try body(UnsafeBufferPointer(start: reals.baseAddress! + start, count: n))
        }
    }

    /// Writes the pseudo-inverse of `matrix` (column-major, `order²` values; not modified) into `inverse` and
    /// returns the numerical rank: the number of singular values above the tolerance.
    ///
    /// - Parameter tolerance: singular values at or below it are treated as zero. `nil` (the default) uses
    ///   `order · ε · σ_max`, the usual rule (ε the `Double` machine epsilon).
    /// - Throws: ``DSPError/lapackFailed(routine:info:)`` if `dgesvd` reports a non-zero `info` (the QR iteration
    ///   did not converge); `inverse` is then unchanged.
    /// - Complexity: O(n³); no allocation.
    @discardableResult
    public func compute(
        _ matrix: UnsafePointer<Double>, into inverse: UnsafeMutablePointer<Double>, tolerance: Double? = nil
    ) throws(DSPError) -> Int {
        let (n, workCount) = (order, workCount)
        return try reals.withUnsafeMutableBufferPointer { (reals) throws(DSPError) -> Int in
            let working = reals.baseAddress!
            let singular = working + n * n
            let left = singular + n
            let rightTransposed = left + n * n
            let work = rightTransposed + n * n
            working.update(from: matrix, count: n * n)
            let info = LAPACKE_dgesvd_work(
                LAPACK_COL_MAJOR, CChar(UInt8(ascii: "A")), CChar(UInt8(ascii: "A")), clapack_int(n), clapack_int(n),
                working, clapack_int(n), singular, left, clapack_int(n), rightTransposed, clapack_int(n),
                work, clapack_int(workCount))
            guard info == 0 else { throw .lapackFailed(routine: "dgesvd", info: Int32(info)) }
            let cut = tolerance ?? Double(n) * Double.ulpOfOne * singular[0]
            var rank = 0
            while rank < n, singular[rank] > cut { rank += 1 }
            // A⁺[i, j] = Σ_k Wᵀ[k, i] · U[j, k] / σ_k over the kept singular values.
            for j in 0..<n {
                for i in 0..<n {
                    var sum = 0.0
                    for k in 0..<rank { sum += rightTransposed[k + i * n] * left[j + k * n] / singular[k] }
                    inverse[i + j * n] = sum
                }
            }
            return rank
        }
    }

    /// Array convenience for ``compute(_:into:tolerance:)``.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` if either array does not hold `order²` values, and
    ///   the errors of ``compute(_:into:tolerance:)``.
    @discardableResult
    public func compute(_ matrix: [Double], into inverse: inout [Double], tolerance: Double? = nil)
        throws(DSPError) -> Int
    {
        let count = order * order
        guard matrix.count == count else { throw .lengthMismatch(expected: count, actual: matrix.count) }
        guard inverse.count == count else { throw .lengthMismatch(expected: count, actual: inverse.count) }
        return try matrix.withUnsafeBufferPointer { (source) throws(DSPError) -> Int in
            try inverse.withUnsafeMutableBufferPointer { (destination) throws(DSPError) -> Int in
                try compute(source.baseAddress!, into: destination.baseAddress!, tolerance: tolerance)
            }
        }
    }
}

/// `PseudoInverse` owns scratch memory that every call overwrites: it is never `Sendable`.
@available(*, unavailable)
extension PseudoInverse: Sendable {}
