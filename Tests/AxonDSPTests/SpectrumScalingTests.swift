// One-sided spectrum scaling: tone calibration, Parseval, density, and band power.

import AxonDSP
import Testing

@Suite("Spectrum scaling")
struct SpectrumScalingTests {
    static func analyzer(
        _ window: WindowKind, scaling: SpectrumScaling = .power, detrend: DetrendMode = .none, size: Int = 256
    ) throws -> SpectrumAnalyzer {
        try SpectrumAnalyzer(
            .init(sampleRate: 250, fftSize: size, window: window, detrend: detrend, scaling: scaling, rigor: .estimate))
    }

    @Test(
        "a sine of amplitude A at a bin centre reads A²/2 at its bin",
        arguments: [
            (WindowKind.rectangular, 1e-9), (.hann, 1e-6), (.hamming, 1e-6), (.blackman, 1e-6),
        ])
    func toneCalibration(window: WindowKind, tolerance: Double) throws {
        let analyzer = try Self.analyzer(window)
        let amplitude = 37.5
        for bin in [10, 23, 100] {
            let frequency = analyzer.grid.frequency(ofBin: bin)
            try analyzer.analyze(
                TestSignals.sine(frequency: frequency, sampleRate: 250, count: 256, amplitude: amplitude, phase: 0.4))
            let expected = amplitude * amplitude / 2
            let spectrum = analyzer.withSpectrum { Array($0) }
            let peak = spectrum.indices.max { spectrum[$0] < spectrum[$1] }
            #expect(peak == bin)
            #expect(abs(spectrum[bin] - expected) < tolerance * expected)
        }
    }

    @Test("Hann: the raw FFT bin divided by the documented coherent gain gives A²/2")
    func hannGainCorrectionByHand() throws {
        let amplitude = 5.0
        let window = try Window(.hann, length: 256)
        let fft = try RealFFT(size: 256, rigor: .estimate)
        let x = TestSignals.sine(frequency: 20 * 250 / 256, sampleRate: 250, count: 256, amplitude: amplitude)
        try fft.transform(zip(x, window.coefficients).map { $0 * $1 })
        let (re, im) = fft.output[20]
        let amplitudeSpectrum = (re * re + im * im).squareRoot() / (256 * window.coherentGain)  // = A/2
        let power = 2 * amplitudeSpectrum * amplitudeSpectrum
        #expect(abs(power - amplitude * amplitude / 2) < 1e-6 * amplitude * amplitude / 2)
        #expect(window.coherentGain == 0.5)
    }

    @Test(
        "rectangular window: the one-sided power spectrum sums to the mean square (Parseval)",
        arguments: [256, 250, 64])
    func parseval(size: Int) throws {
        let analyzer = try Self.analyzer(.rectangular, size: size)
        let x = TestSignals.noise(count: size, seed: 17).map { $0 * 10 + 3 }
        try analyzer.analyze(x)
        let meanSquare = x.reduce(0) { $0 + $1 * $1 } / Double(size)
        let spectrum = analyzer.withSpectrum { Array($0) }
        let total = spectrum.reduce(0, +)
        #expect(abs(total - meanSquare) < 1e-12 * meanSquare)
        // DC is not doubled: bin 0 is exactly mean².
        let mean = x.reduce(0, +) / Double(size)
        #expect(abs(spectrum[0] - mean * mean) < 1e-12 * mean * mean)
        // The full-range band power agrees.
        let all = try analyzer.bandPower(in: FrequencyBand(0, 125))
        #expect(abs(all - meanSquare) < 1e-12 * meanSquare)
    }

    @Test("the Nyquist bin of an even-size transform is not doubled")
    func nyquistNotDoubled() throws {
        let analyzer = try Self.analyzer(.rectangular, size: 64)
        let alternating = (0..<64).map { $0 % 2 == 0 ? 3.0 : -3.0 }  // 3·cos(πn): all power at Nyquist
        try analyzer.analyze(alternating)
        let spectrum = analyzer.withSpectrum { Array($0) }
        #expect(abs(spectrum[32] - 9) < 1e-12)
        #expect(spectrum[0..<32].allSatisfy { $0 < 1e-20 })
    }

    @Test(
        "density spectrum times bin width sums to the mean square of white noise for any window",
        arguments: [WindowKind.rectangular, .hann, .blackman])
    func densityScaling(window: WindowKind) throws {
        // Averaged over many windows, the density integrates to the noise variance whatever the window.
        let analyzer = try Self.analyzer(window, scaling: .density, detrend: .none)
        let signal = TestSignals.noise(count: 256 * 400, seed: 23)
        var average = [Double](repeating: 0, count: analyzer.grid.binCount)
        let windows = try signal.withUnsafeBufferPointer { (s) throws(DSPError) in
            try average.withUnsafeMutableBufferPointer { (d) throws(DSPError) in
                try analyzer.averageSpectrum(of: s, hop: 256, into: d)
            }
        }
        #expect(windows == 400)
        let integral = average.reduce(0, +) * analyzer.grid.binWidth
        let variance = signal.reduce(0) { $0 + $1 * $1 } / Double(signal.count)  // ≈ 1/3
        #expect(abs(integral - variance) < 0.01 * variance)
    }

    @Test(
        "band power of a bin-centred sine is A²/2 with every window once its main lobe is inside the band",
        arguments: [WindowKind.rectangular, .hann, .hamming, .blackman])
    func bandPowerOfTone(window: WindowKind) throws {
        for scaling in SpectrumScaling.allCases {
            let analyzer = try Self.analyzer(window, scaling: scaling)
            let amplitude = 4.0
            try analyzer.analyze(
                TestSignals.sine(frequency: 11 * 250 / 256, sampleRate: 250, count: 256, amplitude: amplitude))
            // Bins 8...14 hold the whole main lobe (Blackman's is ±3 bins wide).
            let band = try FrequencyBand(analyzer.grid.frequency(ofBin: 8), analyzer.grid.frequency(ofBin: 14))
            #expect(try analyzer.grid.bins(in: band) == 8...14)
            let power = try analyzer.bandPower(in: band)
            #expect(abs(power - amplitude * amplitude / 2) < 1e-9 * amplitude * amplitude, "\(scaling)")
        }
    }

    @Test("band sum is the literal sum over bins whose centres lie in the band, edges inclusive")
    func bandSumInclusivity() throws {
        let grid = try FrequencyGrid(sampleRate: 250, fftSize: 256)
        let spectrum = (0..<grid.binCount).map(Double.init)  // value = bin index
        #expect(try grid.bins(in: FrequencyBand(7, 13)) == 8...13)  // 7.81 … 12.70 Hz
        #expect(try grid.bandSum(of: spectrum, in: FrequencyBand(7, 13)) == Double((8...13).reduce(0, +)))
        // An edge exactly on a bin centre includes that bin, on both sides.
        let onCentres = try FrequencyBand(grid.frequency(ofBin: 5), grid.frequency(ofBin: 9))
        #expect(try grid.bins(in: onCentres) == 5...9)
        #expect(try grid.bins(in: FrequencyBand(0, 125)) == 0...128)
    }
}
