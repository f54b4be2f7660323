// AxonDSP — eigen-decomposition of small real symmetric matrices with LAPACK's dsyevr, allocation-free per call.

import CLAPACKE

/// Eigenvalues and eigenvectors of real symmetric `order × order` matrices, with LAPACK's `dsyevr` (the
/// relatively robust representations algorithm), and the functions of a matrix they give (its square root).
///
/// Matrices are column-major (`a[row + column · order]`); only the upper triangle of the input is read. After
/// ``decompose(_:)-(UnsafePointer<Double>)`` the eigenvalues are in ascending order in ``eigenvalues`` and column `j`
/// of ``eigenvectors`` is the unit eigenvector of eigenvalue `j`, so `A = V · diag(λ) · Vᵀ`.
///
/// Everything `dsyevr` needs — the working copy it destroys, the outputs, the support array and its real and
/// integer workspaces, sized by a workspace query — is allocated at init. Each call goes through
/// `LAPACKE_dsyevr_work` in column-major layout, which hands the caller's memory straight to LAPACK (the
/// row-major path and plain `LAPACKE_dsyevr` allocate on every call).
///
/// Threading: a single-owner type (it owns mutable scratch memory); one thread at a time. Not `Sendable`.
///
///     let solver = try SymmetricEigensolver(order: 2)
///     try solver.decompose([2, 1, 1, 2])          // eigenvalues 1 and 3
///     solver.eigenvalues[1]                       // 3
/// - Complexity: ``decompose(_:)-(UnsafePointer<Double>)`` is O(n³); no allocation.
public final class SymmetricEigensolver {
    /// The matrix order `n` this solver accepts.
    public let order: Int

    private let working: UnsafeMutablePointer<Double>
    private let values: UnsafeMutablePointer<Double>
    private let vectors: UnsafeMutablePointer<Double>
    private let support: UnsafeMutablePointer<clapack_int>
    private let work: UnsafeMutablePointer<Double>
    private let workCount: Int
    private let integerWork: UnsafeMutablePointer<clapack_int>
    private let integerWorkCount: Int

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
        working = .allocate(capacity: n * n)
        working.initialize(repeating: 0, count: n * n)
        values = .allocate(capacity: n)
        values.initialize(repeating: 0, count: n)
        vectors = .allocate(capacity: n * n)
        vectors.initialize(repeating: 0, count: n * n)
        support = .allocate(capacity: 2 * n)
        support.initialize(repeating: 0, count: 2 * n)
        work = .allocate(capacity: workCount)
        work.initialize(repeating: 0, count: workCount)
        integerWork = .allocate(capacity: integerWorkCount)
        integerWork.initialize(repeating: 0, count: integerWorkCount)
    }

    deinit {
        working.deallocate()
        values.deallocate()
        vectors.deallocate()
        support.deallocate()
        work.deallocate()
        integerWork.deallocate()
    }

    /// The eigenvalues of the last decomposed matrix, ascending.
    public var eigenvalues: UnsafeBufferPointer<Double> { UnsafeBufferPointer(start: values, count: order) }

    /// The eigenvectors of the last decomposed matrix, column-major: column `j` belongs to `eigenvalues[j]`.
    public var eigenvectors: UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(start: vectors, count: order * order)
    }

    /// Decomposes the symmetric matrix `matrix` (column-major, `order²` values; only its upper triangle is read)
    /// into ``eigenvalues`` and ``eigenvectors``. The input is not modified.
    ///
    /// - Throws: ``DSPError/lapackFailed(routine:info:)`` if `dsyevr` reports a non-zero `info` or returns fewer
    ///   eigenvalues than the order (the outputs are then unspecified).
    /// - Complexity: O(n³); no allocation.
    public func decompose(_ matrix: UnsafePointer<Double>) throws(DSPError) {
        let n = clapack_int(order)
        working.update(from: matrix, count: order * order)
        var found: clapack_int = 0
        let info = LAPACKE_dsyevr_work(
            LAPACK_COL_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "A")), CChar(UInt8(ascii: "U")),
            n, working, n, 0, 0, 0, 0, 0, &found, values, vectors, n, support,
            work, clapack_int(workCount), integerWork, clapack_int(integerWorkCount))
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
    /// in a singular matrix) count as zero. Leaves the decomposition in ``eigenvalues`` and ``eigenvectors``.
    ///
    /// - Throws: the errors of ``decompose(_:)-(UnsafePointer<Double>)`` (`root` is then unchanged).
    /// - Complexity: O(n³); no allocation.
    public func squareRoot(of matrix: UnsafePointer<Double>, into root: UnsafeMutablePointer<Double>)
        throws(DSPError)
    {
        try decompose(matrix)
        let n = order
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

/// `SymmetricEigensolver` owns scratch memory that every call overwrites: it is never `Sendable`.
@available(*, unavailable)
extension SymmetricEigensolver: Sendable {}
