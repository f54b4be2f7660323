import AxonDSP
import Testing

@testable import AxonBench

/// The synthetic benchmark that chose the engine's per-window peak estimator (docs/eeg-engine.md): a reduced grid
/// of its cases, so the claim in the docs is checked on every run.
@Suite struct PeakEstimatorStudyTests {
    static let cases = PeakEstimatorStudy.standardCases(windowSizes: [256]).filter {
        $0.sampleRate == 250 && ($0.centre * 2).rounded() == $0.centre * 2 && [1, 2].contains($0.exponent)
            && [1, 2].contains($0.width)
    }

    @Test func theEngineEstimatorsWorstBiasOnBroadPeaksIsWithinASixthOfAHertz() throws {
        let rows = try PeakEstimatorStudy.run(cases: Self.cases)
        let byEstimator = Dictionary(uniqueKeysWithValues: rows.map { ($0.estimator, $0) })
        let engine = try #require(byEstimator[.logParabolic])
        #expect(engine.worstBiasWide <= 0.15, "\(PeakEstimatorStudy.table(rows))")
        #expect(engine.misses == 0)
        // The band's centre of gravity follows the 1/f background, not the peak: far worse, as measured.
        #expect(try #require(byEstimator[.centreOfGravity]).worstBiasWide > 1)
        // Zero-padding only interpolates the same spectrum more finely: never worse than the engine's.
        #expect(try #require(byEstimator[.logParabolicPadded4]).worstBiasWide <= engine.worstBiasWide)
    }

    @Test func theTruthIsTheModelsMaximumInsideTheBand() throws {
        let alpha = try FrequencyBand(7, 13)
        let model = PeakEstimatorStudy.Case(sampleRate: 250, windowSize: 256, exponent: 1, centre: 10, width: 2)
        #expect(abs(model.truePeak(in: alpha) - 10) < 0.05)
        // A bump whose centre lies past the band: the band's maximum is its edge, where the bump's flank is.
        let outside = PeakEstimatorStudy.Case(sampleRate: 250, windowSize: 256, exponent: 0.5, centre: 14, width: 2)
        #expect(outside.truePeak(in: alpha) > 12.9)
    }

    @Test func noisyWindowsSpreadMoreThanTheBias() throws {
        let noisy = [PeakEstimatorStudy.Case(sampleRate: 250, windowSize: 256, exponent: 1, centre: 10, width: 2)]
        let rows = try PeakEstimatorStudy.run(cases: [], noisyCases: noisy, windows: 60)
        let engine = try #require(rows.first { $0.estimator == .logParabolic })
        let spread = try #require(engine.spread)
        #expect(spread > 0.1 && spread < 3, "\(spread)")
    }
}
