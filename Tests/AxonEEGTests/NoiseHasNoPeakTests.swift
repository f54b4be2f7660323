import AxonDSP
import Foundation
import Testing

@testable import AxonEEG

/// 1/f noise holds no rhythm: the engine's theta and beta report no peak in most windows, and no reported peak is
/// pinned on a band's edge.
@Suite struct NoiseHasNoPeakTests {
    /// Ten minutes of 1/f^β noise at 250 Hz (Gaussian coefficients on sinusoids every 0.1 Hz up to 60 Hz).
    static func powerLawNoise(exponent: Double, seconds: Int, seed: UInt64) -> [Double] {
        var noise = NoiseGenerator(seed: seed)
        let rate = 250.0
        var samples = [Double](repeating: 0, count: seconds * Int(rate))
        for component in 1...600 {
            let frequency = Double(component) * 0.1
            let amplitude = pow(frequency, -exponent / 2)
            let a = amplitude * noise.gaussian()
            let b = amplitude * noise.gaussian()
            // Rotate a phasor instead of calling cos/sin for every sample.
            let step = (cos(2 * .pi * frequency / rate), sin(2 * .pi * frequency / rate))
            var phasor = (1.0, 0.0)
            for index in samples.indices {
                samples[index] += a * phasor.0 + b * phasor.1
                phasor = (phasor.0 * step.0 - phasor.1 * step.1, phasor.0 * step.1 + phasor.1 * step.0)
            }
        }
        return samples
    }

    @Test(arguments: [1.0, 2.0])
    func thetaAndBetaReportNoPeakInMostWindows(exponent: Double) throws {
        let samples = Self.powerLawNoise(exponent: exponent, seconds: 300, seed: 7)
        var configuration = testConfiguration(channels: ["Cz"])
        configuration.quality.excludeArtifacts = false
        let report = try EEGOfflineAnalysis.run(
            configuration: configuration, frameCount: samples.count, baselineSeconds: nil,
            value: { frame, _ in samples[frame] }, time: { testStartTime + Double($0) / 250 })
        let bands = report.channels[0].bands
        let frames = Double(report.frames)
        let alphaPeaks = report.channels[0].bands[1].noPeakFrames
        print("1/f^\(exponent) noise: no peak in theta \(bands[0].noPeakFrames), alpha \(alphaPeaks), beta "
            + "\(bands[2].noPeakFrames) of \(report.frames) windows")
        #expect(Double(bands[0].noPeakFrames) / frames >= 0.8, "theta: \(bands[0].noPeakFrames) of \(report.frames)")
        #expect(Double(bands[2].noPeakFrames) / frames >= 0.8, "beta: \(bands[2].noPeakFrames) of \(report.frames)")
        // 1/f alone has no individual alpha frequency either.
        #expect(report.individualAlpha?.estimate.peak == nil)
    }

    @Test func noDominantFrequencySitsOnABandEdge() throws {
        let samples = Self.powerLawNoise(exponent: 1, seconds: 120, seed: 11)
        var configuration = testConfiguration(channels: ["Cz"])
        configuration.peakProminence = 0  // every local maximum, the case where edges used to show
        let engine = try EEGEngine(configuration)
        var values: [Double] = []
        for (index, sample) in samples.enumerated() {
            let events = engine.ingest([sample], time: testStartTime + Double(index) / 250)
            guard events.contains(.spectrum) else { continue }
            let frame = engine.withSpectrum {
                SpectrumFrame(
                    $0, labels: configuration.channelLabels, bands: configuration.bands, binWidth: engine.grid.binWidth)
            }
            values += frame.channels[0].bands.compactMap(\.dominantFrequency)
        }
        #expect(values.count > 100)
        let edges = configuration.bands.flatMap { [$0.lower, $0.upper] }
        #expect(!values.contains { edges.contains($0) }, "\(values.filter { edges.contains($0) })")
        for (value, band) in zip(values, values.map { v in configuration.bands.first { $0.lower <= v && v <= $0.upper } }) {
            #expect(band != nil, "\(value) Hz lies in no band")
        }
    }
}
