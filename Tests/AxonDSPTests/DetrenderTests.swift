// Mean and least-squares linear detrending, checked against closed-form fits.

import AxonDSP
import Testing

@Suite("Detrender")
struct DetrenderTests {
    /// Closed-form ordinary least squares of `x[n]` on `n`: slope = Σ(n−n̄)(x−x̄) / Σ(n−n̄)², intercept = x̄ − slope·n̄.
    static func closedFormFit(_ x: [Double]) -> (intercept: Double, slope: Double) {
        let count = Double(x.count)
        let meanN = (count - 1) / 2
        let meanX = x.reduce(0, +) / count
        var sxy = 0.0
        var sxx = 0.0
        for (n, value) in x.enumerated() {
            sxy += (Double(n) - meanN) * (value - meanX)
            sxx += (Double(n) - meanN) * (Double(n) - meanN)
        }
        let slope = sxy / sxx
        return (meanX - slope * meanN, slope)
    }

    @Test(
        "linear detrend removes an added ramp and agrees with the closed-form least-squares fit",
        arguments: [256, 250, 2, 3])
    func removesRamp(length: Int) throws {
        let base = TestSignals.sine(frequency: 10, sampleRate: 250, count: length, amplitude: 20)
        let signal = base.enumerated().map { $0.element + 3000 + 1.75 * Double($0.offset) }
        let expected = Self.closedFormFit(signal)

        let detrender = try Detrender(mode: .linear, length: length)
        var residual = signal
        let fit = try residual.withUnsafeMutableBufferPointer { (buffer) throws(DSPError) in
            try detrender.apply(to: buffer)
        }
        #expect(abs(fit.slope - expected.slope) < 1e-9 * max(1, abs(expected.slope)))
        #expect(abs(fit.intercept - expected.intercept) < 1e-9 * max(1, abs(expected.intercept)))
        // What is left has no straight line in it any more.
        let left = Self.closedFormFit(residual)
        #expect(abs(left.slope) < 1e-9)
        #expect(abs(left.intercept) < 1e-9)
        // And it is exactly the input minus the fitted line.
        for n in 0..<length {
            #expect(abs(residual[n] - (signal[n] - fit.intercept - fit.slope * Double(n))) < 1e-9)
        }
    }

    @Test("reusing a linear detrender gives identical results (no state carries over between windows)")
    func reusable() throws {
        let detrender = try Detrender(mode: .linear, length: 64)
        let x = TestSignals.noise(count: 64, seed: 3).enumerated().map { $0.element - 0.5 * Double($0.offset) }
        var first = x
        var second = x
        _ = try first.withUnsafeMutableBufferPointer { (b) throws(DSPError) in try detrender.apply(to: b) }
        var other = TestSignals.noise(count: 64, seed: 4)
        _ = try other.withUnsafeMutableBufferPointer { (b) throws(DSPError) in try detrender.apply(to: b) }
        _ = try second.withUnsafeMutableBufferPointer { (b) throws(DSPError) in try detrender.apply(to: b) }
        #expect(first == second)
    }

    @Test("mean detrend subtracts the mean; none leaves samples alone")
    func meanAndNone() throws {
        let x = TestSignals.noise(count: 100, seed: 11).map { $0 + 42 }
        let mean = x.reduce(0, +) / 100
        var centred = x
        let fit = try centred.withUnsafeMutableBufferPointer { (b) throws(DSPError) in
            try Detrender(mode: .mean, length: 100).apply(to: b)
        }
        #expect(abs(fit.intercept - mean) < 1e-12)
        #expect(fit.slope == 0)
        #expect(abs(centred.reduce(0, +)) < 1e-10)
        var untouched = x
        _ = try untouched.withUnsafeMutableBufferPointer { (b) throws(DSPError) in
            try Detrender(mode: .none, length: 100).apply(to: b)
        }
        #expect(untouched == x)
    }

    @Test("rejects lengths the mode cannot fit and buffers of the wrong length")
    func rejectsBadLengths() throws {
        #expect(throws: DSPError.invalidSize(size: 1, minimum: 2)) { try Detrender(mode: .linear, length: 1) }
        #expect(throws: DSPError.invalidSize(size: 0, minimum: 1)) { try Detrender(mode: .mean, length: 0) }
        let detrender = try Detrender(mode: .linear, length: 8)
        var short = [Double](repeating: 1, count: 4)
        #expect(throws: DSPError.lengthMismatch(expected: 8, actual: 4)) {
            try short.withUnsafeMutableBufferPointer { (b) throws(DSPError) in try detrender.apply(to: b) }
        }
    }
}
