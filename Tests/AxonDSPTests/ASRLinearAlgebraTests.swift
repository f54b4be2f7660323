// The LAPACK pieces of artifact subspace reconstruction on hand-checkable matrices, and the high-pass.

import Foundation
import Testing

@testable import AxonDSP

@Suite("ASR linear algebra: dsyevr, matrix square root, dgesvd pseudo-inverse, high-pass")
struct ASRLinearAlgebraTests {
    /// `a · b` for column-major `n × n` arrays.
    static func multiply(_ a: [Double], _ b: [Double], _ n: Int) -> [Double] {
        var result = [Double](repeating: 0, count: n * n)
        for j in 0..<n {
            for i in 0..<n {
                for k in 0..<n { result[i + j * n] += a[i + k * n] * b[k + j * n] }
            }
        }
        return result
    }

    static func transpose(_ a: [Double], _ n: Int) -> [Double] {
        var result = a
        for j in 0..<n { for i in 0..<n { result[j + i * n] = a[i + j * n] } }
        return result
    }

    static func maxDifference(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    @Test("dsyevr: [[2,1,0],[1,2,0],[0,0,5]] has eigenvalues 1, 3, 5 with the expected eigenvectors")
    func eigenDecomposition() throws {
        let solver = try SymmetricEigensolver(order: 3)
        let a: [Double] = [2, 1, 0, 1, 2, 0, 0, 0, 5]
        try solver.decompose(a)
        let (values, vectors) = solver.withDecomposition { (Array($0), Array($1)) }
        #expect(Self.maxDifference(values, [1, 3, 5]) < 1e-12)
        let expected: [[Double]] = [
            [1 / 2.0.squareRoot(), -1 / 2.0.squareRoot(), 0],
            [1 / 2.0.squareRoot(), 1 / 2.0.squareRoot(), 0], [0, 0, 1],
        ]
        for j in 0..<3 {
            let v = Array(vectors[(3 * j)..<(3 * j + 3)])
            // Unit length, aligned with the expected direction up to sign, and A·v = λ·v.
            let dot = zip(v, expected[j]).map(*).reduce(0, +)
            #expect(abs(abs(dot) - 1) < 1e-12)
            let av = (0..<3).map { i in (0..<3).map { k in a[i + 3 * k] * v[k] }.reduce(0, +) }
            #expect(Self.maxDifference(av, v.map { $0 * values[j] }) < 1e-12)
        }
        // The input array is not touched; a second call gives the same result.
        try solver.decompose(a)
        #expect(solver.withDecomposition { values, _ in Array(values) } == values)
    }

    @Test("sqrtm: √[[5,4],[4,5]] = [[2,1],[1,2]], and M·M = C for a random 8×8 covariance")
    func squareRoot() throws {
        let two = try SymmetricEigensolver(order: 2)
        var root = [Double](repeating: 0, count: 4)
        try root.withUnsafeMutableBufferPointer { (buffer) throws(DSPError) in
            try two.squareRoot(of: [5, 4, 4, 5], into: buffer.baseAddress!)
        }
        #expect(Self.maxDifference(root, [2, 1, 1, 2]) < 1e-12)

        // C = B·Bᵀ + I from deterministic noise: symmetric positive definite.
        let n = 8
        let b = TestSignals.noise(count: n * n, seed: 21)
        var c = Self.multiply(b, Self.transpose(b, n), n)
        for i in 0..<n { c[i + i * n] += 1 }
        let solver = try SymmetricEigensolver(order: n)
        var m = [Double](repeating: 0, count: n * n)
        try m.withUnsafeMutableBufferPointer { (buffer) throws(DSPError) in
            try solver.squareRoot(of: c, into: buffer.baseAddress!)
        }
        #expect(Self.maxDifference(Self.multiply(m, m, n), c) < 1e-12 * c.map(abs).max()!)
        #expect(Self.maxDifference(m, Self.transpose(m, n)) == 0)
        #expect(solver.withDecomposition { values, _ in values.allSatisfy { $0 >= 1 - 1e-12 } })
    }

    @Test("pinv: rank-1 [[1,2],[2,4]] gives A/25; an invertible matrix gives its inverse")
    func pseudoInverseKnown() throws {
        let two = try PseudoInverse(order: 2)
        var inverse = [Double](repeating: 0, count: 4)
        let rank = try two.compute([1, 2, 2, 4], into: &inverse)
        #expect(rank == 1)
        #expect(Self.maxDifference(inverse, [1, 2, 2, 4].map { $0 / 25 }) < 1e-14)
        // [[4,7],[2,6]]⁻¹ = [[0.6,−0.7],[−0.2,0.4]] (column-major arrays).
        let invertible = try two.compute([4, 2, 7, 6], into: &inverse)
        #expect(invertible == 2)
        #expect(Self.maxDifference(inverse, [0.6, -0.2, -0.7, 0.4]) < 1e-14)
    }

    @Test("pinv: the four Penrose conditions hold for a 6×6 matrix with two zeroed rows (as ASR builds them)")
    func penroseConditions() throws {
        let n = 6
        var a = TestSignals.noise(count: n * n, seed: 5)
        for j in 0..<n {
            a[1 + j * n] = 0
            a[4 + j * n] = 0
        }
        let pinv = try PseudoInverse(order: n)
        var p = [Double](repeating: 0, count: n * n)
        let rank = try pinv.compute(a, into: &p)
        #expect(rank == 4)
        let ap = Self.multiply(a, p, n)
        let pa = Self.multiply(p, a, n)
        #expect(Self.maxDifference(Self.multiply(ap, a, n), a) < 1e-12)
        #expect(Self.maxDifference(Self.multiply(pa, p, n), p) < 1e-10)
        #expect(Self.maxDifference(ap, Self.transpose(ap, n)) < 1e-12)
        #expect(Self.maxDifference(pa, Self.transpose(pa, n)) < 1e-12)
        let smallest = pinv.withSingularValues { $0[4] }
        #expect(smallest == 0 || smallest < 1e-14)
    }

    @Test("rejects orders and arrays of the wrong size")
    func rejectsBadSizes() throws {
        #expect(throws: DSPError.invalidSize(size: 0, minimum: 1)) { try SymmetricEigensolver(order: 0) }
        #expect(throws: DSPError.invalidSize(size: 0, minimum: 1)) { try PseudoInverse(order: 0) }
        let solver = try SymmetricEigensolver(order: 3)
        #expect(throws: DSPError.lengthMismatch(expected: 9, actual: 4)) { try solver.decompose([1, 0, 0, 1]) }
        let pinv = try PseudoInverse(order: 2)
        var short = [Double](repeating: 0, count: 3)
        #expect(throws: DSPError.lengthMismatch(expected: 4, actual: 3)) {
            try pinv.compute([1, 0, 0, 1], into: &short)
        }
    }

    @Test("high-pass: a DC offset gives exactly zero, 10 Hz passes within 1 %, 0.1 Hz is attenuated 100-fold")
    func highPass() throws {
        let rate = 250.0
        let filter = try HighPassFilter(channelCount: 3, cutoff: 1, sampleRate: rate)
        var peak = [0.0, 0.0, 0.0]
        var frame = [Double](repeating: 0, count: 3)
        for n in 0..<(20 * Int(rate)) {
            let t = Double(n) / rate
            frame = [-48_000, 100 * sin(2 * .pi * 10 * t) + 3000, 100 * sin(2 * .pi * 0.1 * t)]
            frame.withUnsafeMutableBufferPointer { filter.filter($0.baseAddress!) }
            if n >= 10 * Int(rate) { for c in 0..<3 { peak[c] = max(peak[c], abs(frame[c])) } }
        }
        #expect(peak[0] == 0)
        #expect(abs(peak[1] - 100) < 1)
        #expect(peak[2] < 1)
        // A NaN is held (the previous input replaces it), so the state stays finite.
        frame = [.nan, 0, 0]
        frame.withUnsafeMutableBufferPointer { filter.filter($0.baseAddress!) }
        #expect(frame[0] == 0 && filter.heldValues == 1)
        #expect(
            throws: DSPError.invalidParameter(
                name: "high-pass cutoff", value: 200, requirement: "it must lie in (0, rate/2)")
        ) {
            try HighPassFilter(channelCount: 1, cutoff: 200, sampleRate: rate)
        }
    }

    @Test("median by selection: odd and even counts, duplicates, sorted input", arguments: [1, 2, 7, 100, 101])
    func median(count: Int) {
        var values = TestSignals.noise(count: count, seed: UInt64(count)).map { ($0 * 10).rounded() }
        let sorted = values.sorted()
        let expected = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
        let found = values.withUnsafeMutableBufferPointer { ASRCalibrator.median($0.baseAddress!, count: count) }
        #expect(found == expected)
        var ascending = sorted
        let again = ascending.withUnsafeMutableBufferPointer { ASRCalibrator.median($0.baseAddress!, count: count) }
        #expect(again == expected)
    }
}
