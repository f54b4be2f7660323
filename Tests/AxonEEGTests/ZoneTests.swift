import Foundation
import Testing

@testable import AxonEEG

@Suite("Activity zones on synthetic EEG")
struct ZoneTests {
    /// 60 s of 1/f noise (≈15 µV rms) as the baseline, then 10 s with an added rhythm; returns the indicator for those 10 s.
    static func indicator(adding frequency: Double?, amplitude: Double, seed: UInt64 = 11) throws
        -> ActivityIndicators
    {
        let engine = try EEGEngine(testConfiguration())
        var noise = NoiseGenerator(seed: seed)
        engine.startBaseline()
        var last: ActivityIndicators?
        for n in 0..<(70 * 250) {
            let t = Double(n) / 250
            let rhythm = n >= 60 * 250 ? (frequency.map { amplitude * sin(2 * .pi * $0 * t) } ?? 0) : 0
            let values = (0..<4).map { _ in 3 * noise.pinkNoise() + rhythm }
            if engine.ingest(values, time: testStartTime + t).contains(.indicators) {
                last = engine.withIndicatorRow {
                    ActivityIndicators(
                        row: $0, layout: engine.indicatorLayout, labels: engine.configuration.channelLabels)
                }
            }
        }
        return try #require(last)
    }

    struct Case: Sendable, CustomStringConvertible {
        var frequency: Double
        var zones: Set<ActivityZone>
        /// Amplitudes in µV, weakest first, from clearly above the "up" threshold to well past "full".
        var amplitudes: [Double]
        var description: String { "\(frequency) Hz" }
    }

    @Test(
        "an added rhythm moves the zone, and the percent grows with its amplitude",
        arguments: [
            Case(frequency: 10, zones: [.relaxation, .highRelaxation], amplitudes: [8, 11, 15, 20, 28]),
            Case(frequency: 20, zones: [.agitation, .highAgitation], amplitudes: [7, 9, 12, 16, 22]),
            Case(frequency: 5, zones: [.dream], amplitudes: [12, 16, 22, 30, 40]),
        ])
    func rhythm(_ testCase: Case) throws {
        for seed in [11, 12, 13] as [UInt64] {
            var levels: [(ActivityZone, Double)] = []
            for amplitude in testCase.amplitudes {
                let indicator = try Self.indicator(adding: testCase.frequency, amplitude: amplitude, seed: seed)
                levels.append((indicator.activity.zone, indicator.activity.percent))
                #expect(testCase.zones.contains(indicator.activity.zone), "\(amplitude) µV: \(indicator.activity) \(indicator.zScores)")
                for channel in indicator.channels {
                    #expect(channel.level.map { testCase.zones.contains($0.zone) } ?? false, "\(amplitude) µV \(channel.label): \(String(describing: channel.level))")
                }
            }
            // Monotonic: within the zone pair the High zone ranks above, and percent never falls.
            let ranks = levels.map { (testCase.zones.count == 2 && ($0.0 == .highRelaxation || $0.0 == .highAgitation) ? 1 : 0, $0.1) }
            #expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 <= $1.1) }, "\(levels)")
            #expect(levels.last!.1 > levels.first!.1 || levels.last!.0 != levels.first!.0, "\(levels)")
        }
    }

    @Test("unchanged 1/f noise stays NormalActivity", arguments: [11, 12, 13] as [UInt64])
    func unchanged(seed: UInt64) throws {
        let indicator = try Self.indicator(adding: nil, amplitude: 0, seed: seed)
        #expect(indicator.activity.zone == .normalActivity, "\(indicator.zScores)")
        #expect(indicator.frames == 10)
    }

    @Test("classifier rules and quarter levels")
    func classifierRules() {
        let classifier = ZoneClassifier()
        #expect(classifier.classify(theta: 0, alpha: 1.6, beta: 2) == .init(zone: .relaxation, percent: 0.25))
        #expect(classifier.classify(theta: 0, alpha: 3.2, beta: 0).zone == .highRelaxation)
        #expect(classifier.classify(theta: 0, alpha: 9, beta: 0).percent == 1)
        #expect(classifier.classify(theta: 0, alpha: 0, beta: 2.5) == .init(zone: .agitation, percent: 0.5))
        #expect(classifier.classify(theta: 0, alpha: -1, beta: 3.5).zone == .highAgitation)
        #expect(classifier.classify(theta: 2, alpha: -1, beta: 0.5).zone == .dream)
        #expect(classifier.classify(theta: 2, alpha: 0, beta: 2.5).zone == .agitation)
        #expect(classifier.classify(theta: 0.2, alpha: 0.1, beta: -0.3) == .init(zone: .normalActivity, percent: 0.25))
        #expect(classifier.classify(theta: 1.4, alpha: 0, beta: 0) == .init(zone: .normalActivity, percent: 1))
        #expect(ActivityZone.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        #expect(ActivityZone.allCases.map(\.description)
            == ["Relaxation", "HighRelaxation", "Dream", "NormalActivity", "Agitation", "HighAgitation"])
    }
}
