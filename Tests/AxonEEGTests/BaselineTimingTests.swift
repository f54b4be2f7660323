import Foundation
import Testing

@testable import AxonEEG

@Suite("Baseline and indicator timing, on sample time")
struct BaselineTimingTests {
    @Test("first indicator when the baseline completes, then every indicator period", arguments: [0, 1234])
    func indicatorSchedule(startAt: Int) throws {
        let engine = try EEGEngine(testConfiguration())
        var noise = NoiseGenerator(seed: 7)
        var indicatorSamples: [Int] = []
        var completedAt: [Int] = []
        var spectrumSamples: [Int] = []
        var statesBefore: [BaselineState] = []
        for n in 0..<(startAt + 110 * 250) {
            if n == startAt {
                #expect(!engine.hasStartedIndicators)
                engine.startBaseline()
            }
            let values = (0..<4).map { _ in 10 * noise.pinkNoise() }
            let events = engine.ingest(values, time: testStartTime + Double(n) / 250)
            if events.contains(.spectrum) { spectrumSamples.append(n) }
            if events.contains(.baselineCompleted) { completedAt.append(n) }
            if events.contains(.indicators) {
                indicatorSamples.append(n)
                #expect(engine.withIndicatorRow { Int($0[engine.indicatorLayout.lane(.sampleIndex)]) } == n)
            }
            if n == startAt + 60 * 250 - 2 { statesBefore.append(engine.baselineState) }
        }
        let firstIndicator = startAt + 60 * 250 - 1
        #expect(statesBefore == [.collecting])
        #expect(completedAt == [firstIndicator])
        #expect(indicatorSamples == (0..<6).map { firstIndicator + $0 * 2500 })
        #expect(engine.hasStartedIndicators)
        #expect(zip(spectrumSamples, spectrumSamples.dropFirst()).allSatisfy { $1 - $0 == 250 })
        #expect(spectrumSamples.first == 255)
    }

    @Test("the first indicator averages the baseline's last period; later ones their own period")
    func periodFrames() throws {
        let engine = try EEGEngine(testConfiguration(baseline: 20, indicator: 5))
        engine.startBaseline()
        var frames: [Int] = []
        for n in 0..<(40 * 250) {
            if engine.ingest([1, 2, 3, 4].map { $0 * sin(2 * .pi * 10 * Double(n) / 250) }, time: testStartTime + Double(n) / 250)
                .contains(.indicators)
            {
                frames.append(engine.withIndicatorRow { Int($0[engine.indicatorLayout.lane(.frames)]) })
            }
        }
        #expect(frames == [5, 5, 5, 5, 5])
        #expect(engine.baselineFrames == 19)  // windows end at 255, 505, …, 4755 inside the first 5000 samples
    }

    @Test("restarting the baseline stops indicators until it completes again")
    func restart() throws {
        let engine = try EEGEngine(testConfiguration(baseline: 10, indicator: 5))
        engine.startBaseline()
        var indicators: [Int] = []
        for n in 0..<(40 * 250) {
            if n == 20 * 250 { engine.startBaseline() }
            if engine.ingest([1, 2, 3, 4].map { $0 * cos(2 * .pi * 10 * Double(n) / 250) }, time: Double(n) / 250).contains(.indicators) {
                indicators.append(n)
            }
        }
        // 4999 is the regular schedule, one sample before the restart at 5000.
        #expect(indicators == [2499, 3749, 4999, 7499, 8749, 9999])
    }
}
