// A band's dominant frequency only when the band holds a peak of its own.

import AxonDSP
import Testing

@Suite("Local band peak")
struct LocalPeakTests {
    static func analyzer() throws -> SpectrumAnalyzer {
        try SpectrumAnalyzer(.init(sampleRate: 250, fftSize: 256, rigor: .estimate))
    }

    @Test("an 8 Hz sine: 3–7 Hz has no peak (argmax would read 7.0 Hz), 7–13 Hz reads 8 Hz")
    func leakageIsNoPeak() throws {
        let analyzer = try Self.analyzer()
        try analyzer.analyze(TestSignals.sine(frequency: 8, sampleRate: 250, count: 256, amplitude: 50))
        let spectrum = analyzer.withSpectrum { Array($0) }
        let theta = try FrequencyBand(3, 7)
        #expect(try analyzer.peak(in: theta).frequency == 7)  // the strongest bin's vertex, clamped: not a rhythm
        #expect(try analyzer.grid.localPeak(of: spectrum, in: theta) == nil)
        let alpha = try analyzer.grid.localPeak(of: spectrum, in: FrequencyBand(7, 13))
        #expect(abs((alpha?.frequency ?? 0) - 8) < 0.02)
    }

    @Test("two rhythms: each band reports its own, the larger local maximum wins inside a band")
    func twoRhythms() throws {
        let analyzer = try Self.analyzer()
        let theta = TestSignals.sine(frequency: 5.2, sampleRate: 250, count: 256, amplitude: 10)
        let alpha = TestSignals.sine(frequency: 10.4, sampleRate: 250, count: 256, amplitude: 40, phase: 1)
        try analyzer.analyze((0..<256).map { theta[$0] + alpha[$0] })
        let spectrum = analyzer.withSpectrum { Array($0) }
        #expect(abs((try analyzer.grid.localPeak(of: spectrum, in: FrequencyBand(3, 7))?.frequency ?? 0) - 5.2) < 0.05)
        #expect(abs((try analyzer.grid.localPeak(of: spectrum, in: FrequencyBand(7, 13))?.frequency ?? 0) - 10.4) < 0.05)
    }

    @Test("the bin between 7–13 and 14–24 Hz (13.67 Hz) belongs to neither band: a 13.5 Hz sine gives both no peak")
    func unownedBin() throws {
        let analyzer = try Self.analyzer()
        let frequency = 13.5  // strongest at bin 14 (13.67 Hz); off the bin centre, so its skirts fall smoothly
        try analyzer.analyze(TestSignals.sine(frequency: frequency, sampleRate: 250, count: 256, amplitude: 30))
        let spectrum = analyzer.withSpectrum { Array($0) }
        #expect(try analyzer.grid.localPeak(of: spectrum, in: FrequencyBand(7, 13)) == nil)
        #expect(try analyzer.grid.localPeak(of: spectrum, in: FrequencyBand(14, 24)) == nil)
    }

    @Test("a flat or empty spectrum has no peak; a hand-made one peaks where its local maximum is")
    func handMade() throws {
        let grid = try FrequencyGrid(sampleRate: 256, fftSize: 256)  // 1 Hz bins
        let band = try FrequencyBand(3, 7)
        #expect(try grid.localPeak(of: [Double](repeating: 0, count: grid.binCount), in: band) == nil)
        #expect(try grid.localPeak(of: [Double](repeating: 1, count: grid.binCount), in: band) == nil)
        var spectrum = [Double](repeating: 1, count: grid.binCount)
        spectrum[5] = 4
        spectrum[7] = 3
        spectrum[8] = 9  // outside: bin 7 is not a maximum
        let peak = try grid.localPeak(of: spectrum, in: band)
        #expect(peak?.bin == 5)
    }
}
