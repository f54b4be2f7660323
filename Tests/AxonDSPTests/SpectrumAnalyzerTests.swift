// SpectrumAnalyzer's buffer contract and the planner lock under concurrent plan creation.

import AxonDSP
import Testing

@Suite("SpectrumAnalyzer")
struct SpectrumAnalyzerTests {
    @Test("analyze(_:into:) fills the caller's buffer, leaves spectrum and the caller's samples unchanged")
    func intoCallerBuffer() throws {
        let analyzer = try SpectrumAnalyzer(.init(detrend: .linear, rigor: .estimate))
        let first = TestSignals.sine(frequency: 10, sampleRate: 250, count: 256, amplitude: 8, offset: 300)
        let second = TestSignals.noise(count: 256, seed: 8)
        try analyzer.analyze(first)
        let kept = analyzer.withSpectrum { Array($0) }
        var external = [Double](repeating: -1, count: analyzer.grid.binCount)
        let samples = second
        try samples.withUnsafeBufferPointer { (s) throws(DSPError) in
            try external.withUnsafeMutableBufferPointer { (d) throws(DSPError) in try analyzer.analyze(s, into: d) }
        }
        #expect(analyzer.withSpectrum { Array($0) } == kept)
        #expect(samples == second)
        try analyzer.analyze(second)
        #expect(analyzer.withSpectrum { Array($0) } == external)
        #expect(abs(analyzer.lastTrend.slope - DetrenderTests.closedFormFit(second).slope) < 1e-12)
    }

    @Test("a window in two pieces (a circular buffer) gives the same spectrum as the window in one",
          arguments: DetrendMode.allCases)
    func twoPieces(detrend: DetrendMode) throws {
        let analyzer = try SpectrumAnalyzer(.init(detrend: detrend, rigor: .estimate))
        let samples = TestSignals.noise(count: 256, seed: 5).enumerated().map { $0.element + 0.3 * Double($0.offset) + 50 }
        var whole = [Double](repeating: 0, count: 129)
        var pieces = [Double](repeating: 0, count: 129)
        try samples.withUnsafeBufferPointer { (all) throws(DSPError) in
            try whole.withUnsafeMutableBufferPointer { (out) throws(DSPError) in try analyzer.analyze(all, into: out) }
            for split in [0, 1, 100, 255, 256] {
                try pieces.withUnsafeMutableBufferPointer { (out) throws(DSPError) in
                    try analyzer.analyze(
                        UnsafeBufferPointer(rebasing: all[0..<split]), UnsafeBufferPointer(rebasing: all[split...]),
                        into: out)
                }
                for k in 0..<129 { #expect(abs(pieces[k] - whole[k]) <= 1e-9 * max(1, whole[k]), "split \(split) bin \(k)") }
            }
        }
        #expect(throws: DSPError.lengthMismatch(expected: 256, actual: 255)) {
            try samples.withUnsafeBufferPointer { (all) throws(DSPError) in
                try pieces.withUnsafeMutableBufferPointer { (out) throws(DSPError) in
                    try analyzer.analyze(UnsafeBufferPointer(rebasing: all[0..<100]), UnsafeBufferPointer(rebasing: all[101...]), into: out)
                }
            }
        }
    }

    @Test("the default configuration is the Brainiac chain: 250 Hz, 256 points, Hann, mean removal, power")
    func defaults() throws {
        let configuration = SpectrumAnalyzer.Configuration()
        #expect(configuration.sampleRate == 250)
        #expect(configuration.fftSize == 256)
        #expect(configuration.window == .hann)
        #expect(configuration.detrend == .mean)
        #expect(configuration.scaling == .power)
        #expect(configuration.rigor == .measure)
        let analyzer = try SpectrumAnalyzer(.init(rigor: .estimate))
        #expect(analyzer.grid.binCount == 129)
        #expect(analyzer.grid.binWidth == 0.9765625)
        #expect(analyzer.withSpectrum { $0.allSatisfy { $0 == 0 } })
    }

    @Test("wrong-length windows, destinations and Welch inputs are rejected with typed errors")
    func rejectsBadLengths() throws {
        let analyzer = try SpectrumAnalyzer(.init(fftSize: 64, rigor: .estimate))
        #expect(throws: DSPError.lengthMismatch(expected: 64, actual: 63)) {
            try analyzer.analyze([Double](repeating: 0, count: 63))
        }
        let short = [Double](repeating: 0, count: 63)
        var destination = [Double](repeating: 0, count: 33)
        #expect(throws: DSPError.invalidSize(size: 63, minimum: 64)) {
            try short.withUnsafeBufferPointer { (s) throws(DSPError) in
                try destination.withUnsafeMutableBufferPointer { (d) throws(DSPError) in
                    try analyzer.averageSpectrum(of: s, hop: 32, into: d)
                }
            }
        }
        #expect(throws: DSPError.invalidSize(size: 0, minimum: 1)) {
            try short.withUnsafeBufferPointer { (s) throws(DSPError) in
                try destination.withUnsafeMutableBufferPointer { (d) throws(DSPError) in
                    try analyzer.averageSpectrum(of: s, hop: 0, into: d)
                }
            }
        }
        #expect(throws: DSPError.invalidSampleRate(-250)) { try SpectrumAnalyzer(.init(sampleRate: -250)) }
    }

    @Test("plans created and used concurrently on many tasks all transform correctly (planner lock)")
    func concurrentPlanning() async throws {
        let sizes = [64, 100, 128, 250, 256, 512, 96, 200]
        let results = try await withThrowingTaskGroup(of: (Int, Double).self) { group in
            for (index, size) in sizes.enumerated() {
                group.addTask {
                    // Each task owns its RealFFT: plan, transform, destroy — all racing with the other tasks.
                    var worst = 0.0
                    for round in 0..<20 {
                        let fft = try RealFFT(size: size, rigor: round.isMultiple(of: 2) ? .estimate : .measure)
                        let bin = 1 + (index + round) % (size / 2 - 1)
                        let x = TestSignals.sine(
                            frequency: Double(bin), sampleRate: Double(size), count: size, amplitude: 2)
                        try fft.transform(x)
                        // 2·sin at an exact bin gives X[bin] = −i·N.
                        worst = max(worst, abs(fft.output[bin].1 + Double(size)), abs(fft.output[bin].0))
                    }
                    return (size, worst)
                }
            }
            var collected: [(Int, Double)] = []
            for try await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == sizes.count)
        for (size, worst) in results { #expect(worst < 1e-9 * Double(size), "size \(size)") }
    }
}
