import AxonDSP
import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// 256 samples of an EEG-like test signal: a 10 Hz alpha sine plus a 23 Hz component and an offset, at 250 Hz.
func testWindow(count: Int = 256) -> [Double] {
    (0..<count).map { n in
        let t = Double(n) / 250
        return 20 * sin(2 * .pi * 10 * t) + 5 * sin(2 * .pi * 23 * t) + 3
    }
}

/// The analyzer and a preallocated input window for `Spectrum.analyze256`.
final class SpectrumFixture {
    let analyzer: SpectrumAnalyzer
    let samples: UnsafeMutableBufferPointer<Double>

    init() throws {
        analyzer = try SpectrumAnalyzer(.init())
        samples = .allocate(capacity: 256)
        _ = samples.initialize(fromContentsOf: testWindow())
    }

    deinit { samples.deallocate() }
}

func registerDSPBenchmarks() {
    // Plans are made in setup (FFTW_MEASURE takes ~60 ms); the measured loop reuses them.
    Benchmark(
        "FFT.r2c256",
        configuration: .init(scalingFactor: .kilo)
    ) { (benchmark: Benchmark, fft: RealFFT) in
        for _ in benchmark.scaledIterations {
            fft.execute()
        }
        blackHole(fft.output[10])
    } setup: {
        let fft = try RealFFT(size: 256, rigor: .measure)
        _ = testWindow().withUnsafeBufferPointer { fft.input.update(fromContentsOf: $0) }
        return fft
    }

    Benchmark(
        "Spectrum.analyze256",
        configuration: .init(scalingFactor: .kilo)
    ) { (benchmark: Benchmark, fixture: SpectrumFixture) in
        let samples = UnsafeBufferPointer(fixture.samples)
        do {
            for _ in benchmark.scaledIterations {
                try fixture.analyzer.analyze(samples)
            }
        } catch {
            benchmark.error("analyze failed: \(error)")
        }
        blackHole(fixture.analyzer.withSpectrum { $0[10] })
    } setup: {
        try SpectrumFixture()
    }
}
