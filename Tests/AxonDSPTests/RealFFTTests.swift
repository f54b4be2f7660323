// RealFFT against a direct DFT, and its copy-in / reuse contract.

import AxonDSP
import Testing

@Suite("RealFFT")
struct RealFFTTests {
    @Test("matches a direct O(N²) DFT to 1e-9 of the spectrum's scale", arguments: [256, 250, 512, 64, 7])
    func matchesDirectDFT(size: Int) throws {
        // Noise plus a DC offset plus two tones: every bin carries something.
        let noise = TestSignals.noise(count: size, seed: UInt64(size))
        let tone = TestSignals.sine(frequency: 10.7, sampleRate: 250, count: size, amplitude: 3, offset: 1.5)
        let signal = zip(noise, tone).map { $0 + $1 }
        let reference = TestSignals.directDFT(signal)
        let scale = reference.map { ($0.0 * $0.0 + $0.1 * $0.1).squareRoot() }.max() ?? 1

        let fft = try RealFFT(size: size, rigor: .estimate)
        #expect(fft.binCount == size / 2 + 1)
        try fft.transform(signal)
        var worst = 0.0
        for k in 0..<fft.binCount {
            let (re, im) = fft.output[k]
            worst = max(worst, abs(re - reference[k].0), abs(im - reference[k].1))
        }
        #expect(worst < 1e-9 * scale, "max abs error \(worst) vs scale \(scale)")
    }

    @Test("reuses its plan: a second transform gives the same result, and the input buffer is preserved")
    func planIsReusable() throws {
        let fft = try RealFFT(size: 64, rigor: .estimate)
        let a = TestSignals.sine(frequency: 8, sampleRate: 64, count: 64)  // exactly bin 8
        let b = TestSignals.noise(count: 64, seed: 99)
        try fft.transform(a)
        let first = Array(fft.output).map { [$0.0, $0.1] }
        try fft.transform(b)
        try fft.transform(a)
        let again = Array(fft.output).map { [$0.0, $0.1] }
        #expect(first == again)
        #expect(Array(fft.input) == a)
        // sin at bin 8 of 64 points: X[8] = −i·N/2.
        #expect(abs(fft.output[8].1 + 32) < 1e-12)
        #expect(abs(fft.output[8].0) < 1e-12)
    }

    @Test("load + execute equals transform; MEASURE planning leaves clean buffers")
    func loadThenExecute() throws {
        let fft = try RealFFT(size: 128, rigor: .measure)
        #expect(fft.input.allSatisfy { $0 == 0 })
        #expect(fft.output.allSatisfy { $0.0 == 0 && $0.1 == 0 })
        let x = TestSignals.noise(count: 128, seed: 5)
        try x.withUnsafeBufferPointer { (buffer) throws(DSPError) in try fft.load(buffer) }
        fft.execute()
        let viaLoad = Array(fft.output).map { [$0.0, $0.1] }
        try fft.transform(x)
        #expect(Array(fft.output).map { [$0.0, $0.1] } == viaLoad)
    }

    @Test("rejects sizes below 2 and inputs of the wrong length with typed errors")
    func rejectsBadSizes() throws {
        #expect(throws: DSPError.invalidSize(size: 1, minimum: 2)) { try RealFFT(size: 1, rigor: .estimate) }
        #expect(throws: DSPError.invalidSize(size: 0, minimum: 2)) { try RealFFT(size: 0, rigor: .estimate) }
        let fft = try RealFFT(size: 16, rigor: .estimate)
        #expect(throws: DSPError.lengthMismatch(expected: 16, actual: 15)) {
            try fft.transform([Double](repeating: 0, count: 15))
        }
    }
}
