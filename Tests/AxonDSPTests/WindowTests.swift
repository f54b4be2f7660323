// Window coefficients and the gains used to scale spectra.

import AxonDSP
import Foundation
import Testing

@Suite("Window")
struct WindowTests {
    @Test(
        "periodic coefficients, coherent gain and ENBW match the closed forms",
        arguments: [
            (WindowKind.hann, 0.5, 1.5),
            (.hamming, 0.54, 1.362825788751715),
            (.blackman, 0.42, 1.726757369614512),
            (.rectangular, 1.0, 1.0),
        ])
    func gains(kind: WindowKind, coherentGain: Double, enbw: Double) throws {
        let window = try Window(kind, length: 256)
        #expect(window.coefficients.count == 256)
        #expect(abs(window.coherentGain - coherentGain) < 1e-12)
        #expect(abs(window.equivalentNoiseBandwidth - enbw) < 1e-9)
        #expect(abs(window.powerGain - enbw * coherentGain * coherentGain) < 1e-12)
        // Periodic form: w[n] = w[N − n] for n = 1..<N, and the maximum sits at n = N/2.
        for n in 1..<256 { #expect(abs(window.coefficients[n] - window.coefficients[256 - n]) < 1e-12) }
        #expect(window.coefficients.max() == window.coefficients[128])
    }

    @Test("Hann coefficients are 0.5 − 0.5·cos(2πn/N) and apply() multiplies in place")
    func hannApply() throws {
        let window = try Window(.hann, length: 8)
        let expected = (0..<8).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / 8) }
        for n in 0..<8 { #expect(abs(window.coefficients[n] - expected[n]) < 1e-15) }
        var samples = [Double](repeating: 2, count: 8)
        try samples.withUnsafeMutableBufferPointer { (buffer) throws(DSPError) in try window.apply(to: buffer) }
        for n in 0..<8 { #expect(abs(samples[n] - 2 * expected[n]) < 1e-15) }
        var wrong = [Double](repeating: 0, count: 7)
        #expect(throws: DSPError.lengthMismatch(expected: 8, actual: 7)) {
            try wrong.withUnsafeMutableBufferPointer { (buffer) throws(DSPError) in try window.apply(to: buffer) }
        }
        #expect(throws: DSPError.invalidSize(size: 0, minimum: 1)) { try Window(.hann, length: 0) }
    }
}
