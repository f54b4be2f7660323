// AxonDSP — eigen-decomposition of small real symmetric matrices with LAPACK's dsyevr, allocation-free per call.

import AxonMemory
import CLAPACKE

/// Eigenvalues and eigenvectors of real symmetric `order × order` matrices, with LAPACK's `dsyevr` (the
/// relatively robust representations algorithm), and the functions of a matrix they give (its square root).
///
/// Matrices are column-major (`a[row + column · order]`); only the upper triangle of the input is read. After
/// ``decompose(_:)-(UnsafePointer<Double>)`` the eigenvalues are in ascending order and column `j` of the eigenvectors
/// is the unit eigenvector of eigenvalue `j`, so `A = V · diag(λ) · Vᵀ`; ``withDecomposition(_:)`` lends both.
///
/// Everything `dsyevr` needs — the working copy it destroys, the outputs, the support array and its real and
/// integer workspaces, sized by a workspace query — is allocated at init, in two ``AxonMemory/OwnedBuffer``s (the
/// reals and the integers) freed with the solver. Each call goes through
/// `LAPACKE_dsyevr_work` in column-major layout, which hands the caller's memory straight to LAPACK (the
/// row-major path and plain `LAPACKE_dsyevr` allocate on every call).
///
/// Threading: a single-owner type (it owns mutable scratch memory); one thread at a time. Not `Sendable`.
///
///     let solver = try SymmetricEigensolver(order: 2)
///     try solver.decompose([2, 1, 1, 2])          // eigenvalues 1 and 3
///     solver.withDecomposition { values, _ in values[1] }   // 3
/// - Complexity: ``decompose(_:)-(UnsafePointer<Double>)`` is O(n³); no allocation.
public final class SymmetricEigensolver {
    /// The matrix order `n` this solver accepts.
    public let order: Int

    /// The reals, one after another: the working copy (`n²`), the eigenvalues (`n`), the eigenvectors (`n²`) and
    /// the real workspace (`workCount`).
    @usableFromInline let reals: OwnedBuffer<Double>
    /// The integers: the support array (`2n`) and the integer workspace (`integerWorkCount`).
    private let integers: OwnedBuffer<clapack_int>
    private let workCount: Int
    private let integerWorkCount: Int
    @usableFromInline var valuesOffset: Int { order * order }
    @usableFromInline var vectorsOffset: Int { order * order + order }
    private var workOffset: Int { 2 * order * order + order }

    /// Prepares a solver for `order × order` matrices.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` if `order` is below 1 or above 4096;
    ///   ``DSPError/lapackFailed(routine:info:)`` if the workspace query fails.
    /// - Complexity: O(n²) memory, a few allocations.
    public init(order: Int) throws(DSPError) {
        guard order >= 1, order <= 4096 else { throw .invalidSize(size: order, minimum: 1) }
        let n = order
        var optimalWork = 0.0
        var optimalIntegerWork: clapack_int = 0
        var found: clapack_int = 0
        var probe = [Double](repeating: 0, count: n * n + n + n * n)
        var probeSupport = [clapack_int](repeating: 0, count: 2 * n)
        let info = probe.withUnsafeMutableBufferPointer { buffer in
            probeSupport.withUnsafeMutableBufferPointer { support in
                LAPACKE_dsyevr_work(
                    LAPACK_COL_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "A")), CChar(UInt8(ascii: "U")),
                    clapack_int(n), buffer.baseAddress!, clapack_int(n), 0, 0, 0, 0, 0, &found,
                    buffer.baseAddress! + n * n, buffer.baseAddress! + n * n + n, clapack_int(n),
                    support.baseAddress!, &optimalWork, -1, &optimalIntegerWork, -1)
            }
        }
        guard info == 0 else { throw .lapackFailed(routine: "dsyevr (workspace query)", info: Int32(info)) }
        // dsyevr's documented minima are 26n and 10n; the query gives the optimum, never less.
        workCount = max(Int(optimalWork), 26 * n)
        integerWorkCount = max(Int(optimalIntegerWork), 10 * n)
        self.order = n
        reals = OwnedBuffer(repeating: 0, count: 2 * n * n + n + workCount)
        integers = OwnedBuffer(repeating: 0, count: 2 * n + integerWorkCount)
    }

    /// Calls `body` with the decomposition of the last decomposed matrix: its `order` eigenvalues, ascending, and its
    /// eigenvectors, column-major (`order²` values; column `j` belongs to eigenvalue `j`). The pointers are valid
    /// only inside `body`.
    ///
    /// - Complexity: O(1); no allocation.
    @inlinable
    public func withDecomposition<Result, Failure: Error>(
        _ body: (_ eigenvalues: UnsafeBufferPointer<Double>, _ eigenvectors: UnsafeBufferPointer<Double>)
            throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let (n, values, vectors) = (order, valuesOffset, vectorsOffset)
        return try reals.withUnsafeBufferPointer { (reals) throws(Failure) in
            // Pointer arithmetic rather than slices: an unoptimised build would instantiate the slice type's metadata
            // (allocating) on first use.
            try body(
                UnsafeBufferPointer(start: reals.baseAddress! + values, count: n),
                UnsafeBufferPointer(start: reals.baseAddress! + vectors, count: n * n))
        }
    }

    /// Decomposes the symmetric matrix `matrix` (column-major, `order²` values; only its upper triangle is read)
    /// into its eigenvalues and eigenvectors (``withDecomposition(_:)``). The input is not modified.
    ///
    /// - Throws: ``DSPError/lapackFailed(routine:info:)`` if `dsyevr` reports a non-zero `info` or returns fewer
    ///   eigenvalues than the order (the outputs are then unspecified).
    /// - Complexity: O(n³); no allocation.
    public func decompose(_ matrix: UnsafePointer<Double>) throws(DSPError) {
        let n = clapack_int(order)
        var found: clapack_int = 0
        let (valuesOffset, vectorsOffset, workOffset) = (valuesOffset, vectorsOffset, workOffset)
        let (workCount, integerWorkCount, order) = (workCount, integerWorkCount, order)
        let info = reals.withUnsafeMutableBufferPointer { reals in
            integers.withUnsafeMutableBufferPointer { integers in
                let working = reals.baseAddress!
                working.update(from: matrix, count: order * order)
                return LAPACKE_dsyevr_work(
                    LAPACK_COL_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "A")), CChar(UInt8(ascii: "U")),
                    n, working, n, 0, 0, 0, 0, 0, &found, working + valuesOffset, working + vectorsOffset, n,
                    integers.baseAddress!, working + workOffset, clapack_int(workCount),
                    integers.baseAddress! + 2 * order, clapack_int(integerWorkCount))
            }
        }
        guard info == 0 else { throw .lapackFailed(routine: "dsyevr", info: Int32(info)) }
        guard found == n else { throw .lapackFailed(routine: "dsyevr", info: Int32(found) + 1) }
    }

    /// Decomposes a symmetric matrix given as an array of `order²` column-major values; see ``decompose(_:)``.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` if the array does not hold `order²` values, and the
    ///   errors of ``decompose(_:)``.
    public func decompose(_ matrix: [Double]) throws(DSPError) {
        guard matrix.count == order * order else {
            throw .lengthMismatch(expected: order * order, actual: matrix.count)
        }
        try matrix.withUnsafeBufferPointer { (buffer) throws(DSPError) in try decompose(buffer.baseAddress!) }
    }

    /// Writes the symmetric square root `V · diag(√λ) · Vᵀ` of `matrix` into `root` (column-major, `order²`
    /// values), so that `root · root = matrix` for a positive semi-definite matrix. Eigenvalues below zero (round-off
    /// in a singular matrix) count as zero. Leaves the decomposition in place (``withDecomposition(_:)``).
    ///
    /// - Throws: the errors of ``decompose(_:)-(UnsafePointer<Double>)`` (`root` is then unchanged).
    /// - Complexity: O(n³); no allocation.
    public func squareRoot(of matrix: UnsafePointer<Double>, into root: UnsafeMutablePointer<Double>)
        throws(DSPError)
    {
        try decompose(matrix)
        let n = order
        withDecomposition { values, vectors in
            for j in 0..<n {
                for i in 0...j {
                    var sum = 0.0
                    for k in 0..<n {
                        sum += vectors[i + k * n] * vectors[j + k * n] * max(values[k], 0).squareRoot()
                    }
                    root[i + j * n] = sum
                    root[j + i * n] = sum
                }
            }
        }
    }
}

/// `SymmetricEigensolver` owns scratch memory that every call overwrites: it is never `Sendable`.
@available(*, unavailable)
extension SymmetricEigensolver: Sendable {}
