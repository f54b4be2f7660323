@testable import AxonDSP
import Foundation
import Testing

/// The pieces of the individual alpha frequency: Savitzky–Golay weights, the zero-padded averaged periodogram, the
/// estimator on spectra with and without an alpha peak (the real recordings are in `AxonCLITests`).
@Suite struct IndividualAlphaTests {
    @Test func savitzkyGolayWeightsAreThePublishedOnes() throws {
        let filter = try SavitzkyGolay(frameWidth: 11, order: 5)
        // The exact rationals for 11 points, degree 5 (smoothing, first and second derivative at the centre),
        // as (numerator, denominator).
        let smooth: [(Double, Double)] = [
            (18, 429), (-45, 429), (-10, 429), (60, 429), (120, 429), (143, 429), (120, 429), (60, 429), (-10, 429),
            (-45, 429), (18, 429),
        ]
        let slope: [(Double, Double)] = [
            (-191, 5720), (361, 2860), (-1249, 17160), (-629, 2860), (-257, 1430), (0, 1), (257, 1430), (629, 2860),
            (1249, 17160), (-361, 2860), (191, 5720),
        ]
        let curvature: [(Double, Double)] = [
            (-15, 286), (29, 286), (73, 858), (1, 1716), (-34, 429), (-95, 858), (-34, 429), (1, 1716), (73, 858),
            (29, 286), (-15, 286),
        ]
        for (derivative, expected) in [smooth, slope, curvature].enumerated() {
            let weights = filter.weights(evaluatedAt: 0, derivative: derivative)
            for (a, fraction) in zip(weights, expected) {
                let b: Double = fraction.0 / fraction.1
                #expect(abs(a - b) < 1e-12, "derivative \(derivative): \(weights)")
            }
        }
    }

    @Test func savitzkyGolayKeepsAPolynomialOfItsDegreeToTheEnds() throws {
        let filter = try SavitzkyGolay(frameWidth: 11, order: 5)
        let values = (0..<30).map { x -> Double in let t = Double(x) / 10; return 1 + t - 2 * t * t + 0.5 * pow(t, 5) }
        let smoothed = filter.apply(to: values)
        let slope = filter.apply(to: values, derivative: 1, spacing: 0.1)
        for x in values.indices {
            let t = Double(x) / 10
            #expect(abs(smoothed[x] - values[x]) < 1e-9)
            #expect(abs(slope[x] - (1 - 4 * t + 2.5 * pow(t, 4))) < 1e-7)
        }
    }

    @Test func theAveragedPeriodogramIsTheDensityOfASine() throws {
        let periodogram = try AveragedPeriodogram(sampleRate: 250, windowLength: 256)
        #expect(periodogram.grid.binWidth == 250.0 / 1024)
        let samples = (0..<256).map { 3 * sin(2 * Double.pi * 10 * Double($0) / 250) + 7 }
        samples.withUnsafeBufferPointer { periodogram.add($0) }
        samples.withUnsafeBufferPointer { periodogram.add(UnsafeBufferPointer(rebasing: $0[0..<100]), UnsafeBufferPointer(rebasing: $0[100...])) }
        #expect(periodogram.count == 2)
        // The density integrates to the sine's mean square, A²/2 = 4.5, over its main lobe; the offset is removed.
        let total = periodogram.mean.reduce(0, +) * periodogram.grid.binWidth
        #expect(abs(total - 4.5) / 4.5 < 0.01, "\(total)")
        #expect(periodogram.mean[0] < 1e-3 * (periodogram.mean.max() ?? 0))  // 7 µV of offset would read 49 / Δf
    }

    /// A spectrum on a 1024-point grid at 250 Hz: `1/f` plus, when `peak` is given, a Gaussian bump there.
    static func spectrum(peak: Double?, grid: FrequencyGrid) -> [Double] {
        (0..<grid.binCount).map { k in
            let f = max(grid.frequency(ofBin: k), 0.25)
            return 1 / f + (peak.map { 2 * exp(-0.5 * pow((f - $0) / 0.8, 2)) } ?? 0)
        }
    }

    @Test func anAlphaBumpGivesItsPeakAndCentre() throws {
        let grid = try FrequencyGrid(sampleRate: 250, fftSize: 1024)
        let estimator = try IndividualAlphaFrequency()
        let estimate = estimator.estimate(
            spectra: [Self.spectrum(peak: 10.3, grid: grid), Self.spectrum(peak: 10.3, grid: grid)], grid: grid)
        let peak = try #require(estimate.peak)
        #expect(abs(peak - 10.3) <= grid.binWidth, "\(peak)")
        let gravity = try #require(estimate.centreOfGravity)
        #expect(abs(gravity - 10.3) < 0.5, "\(gravity)")
        #expect(estimate.channels.allSatisfy { $0.peak != nil && $0.lowerBound != nil })
    }

    @Test func oneOverFAloneHasNoIAF() throws {
        let grid = try FrequencyGrid(sampleRate: 250, fftSize: 1024)
        let estimate = try IndividualAlphaFrequency().estimate(spectra: [Self.spectrum(peak: nil, grid: grid)], grid: grid)
        #expect(estimate.peak == nil)
        #expect(estimate.centreOfGravity == nil)
        #expect(estimate.channels[0].reason != nil)
    }

    @Test func twoPeaksOfSimilarPowerGiveNoPAF() throws {
        let grid = try FrequencyGrid(sampleRate: 250, fftSize: 1024)
        let split = (0..<grid.binCount).map { k -> Double in
            let f = max(grid.frequency(ofBin: k), 0.25)
            return 1 / f + 2 * exp(-0.5 * pow((f - 8.5) / 0.5, 2)) + 1.9 * exp(-0.5 * pow((f - 11.5) / 0.5, 2))
        }
        let estimate = try IndividualAlphaFrequency().estimate(spectra: [split], grid: grid)
        #expect(estimate.channels[0].peak == nil)
        #expect(estimate.channels[0].reason == "two peaks of similar power")
    }
}
