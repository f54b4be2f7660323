import AxonDSP
import Foundation
import Testing

@testable import AxonEEG

@Suite("EEG engine on pure tones")
struct EngineToneTests {
    static let tones: [Double] = [3.5, 5, 6.8, 8, 10, 11.3, 12.5, 15, 20, 23.7]

    /// Every window's dominant frequency in the tone's band is within 0.05 Hz of the tone, on every channel.
    @Test("dominant frequency tracks a pure sine", arguments: tones)
    func dominantFrequencyOfTone(frequency: Double) throws {
        let engine = try EEGEngine(testConfiguration())
        let band = try #require(engine.configuration.bands.firstIndex { $0.lower <= frequency && frequency <= $0.upper })
        var worst = 0.0
        var frames = 0
        for n in 0..<(30 * 250) {
            let t = Double(n) / 250
            let value = 50 * sin(2 * .pi * frequency * t + 0.3)
            let events = engine.ingest([value, value, value, value], time: testStartTime + t)
            guard events.contains(.spectrum) else { continue }
            frames += 1
            for channel in 0..<4 {
                let found = engine.withSpectrum { $0.dominantFrequency(channel: channel, band: band) }
                worst = max(worst, abs((found ?? .infinity) - frequency))
            }
        }
        #expect(frames == 29)  // 7500 samples: windows end at 255, 505, …, 7255
        #expect(worst < 0.05, "worst error \(worst) Hz at \(frequency) Hz")
    }

    @Test("a sine of amplitude A reads A²/2 of band power and dominates the relative power")
    func bandPowerOfTone() throws {
        let engine = try EEGEngine(testConfiguration())
        for n in 0..<512 {
            let t = Double(n) / 250
            engine.ingest([20 * sin(2 * .pi * 10 * t), 0, 0, 0], time: testStartTime + t)
        }
        engine.withSpectrum { frame in
            #expect(abs(frame.bandPower(channel: 0, band: 1) - 200) < 2)
            #expect(frame.relativePower(channel: 0, band: 1) > 0.99)
            #expect(frame.bandPower(channel: 1, band: 1) == 0)
        }
    }

    @Test("spectra are stamped with the window's last sample, in ms since 1970, and counted")
    func frameHeader() throws {
        let engine = try EEGEngine(testConfiguration())
        var ends: [Int] = []
        var times: [Double] = []
        var counters: [Int] = []
        for n in 0..<1300 {
            let t = testStartTime + Double(n) / 250
            if engine.ingest([0, 1, 2, 3], time: t).contains(.spectrum) {
                engine.withSpectrum { frame in
                    ends.append(frame.sampleIndex)
                    times.append(frame.timeframe)
                    counters.append(frame.counter)
                    #expect(n == frame.sampleIndex)
                }
            }
        }
        #expect(ends == [255, 505, 755, 1005, 1255])
        #expect(counters == [0, 1, 2, 3, 4])
        #expect(times.map { $0 - testStartTime * 1000 }.map { ($0 * 1000).rounded() / 1000 } == [1020, 2020, 3020, 4020, 5020])
    }

    @Test("lost samples are filled, keep the hop schedule, and are reported per window")
    func filledSamples() throws {
        let engine = try EEGEngine(testConfiguration())
        var filledPerFrame: [Int] = []
        for n in 0..<1010 {
            let t = testStartTime + Double(n) / 250
            let events = (300..<310).contains(n) ? engine.ingestFilled(time: t) : engine.ingest([1, 2, 3, 4], time: t)
            if events.contains(.spectrum) { filledPerFrame.append(engine.withSpectrum(\.filledSamples)) }
        }
        #expect(filledPerFrame == [0, 10, 0, 0])
    }

    @Test("bad configurations are refused with a reason")
    func invalidConfiguration() {
        var configuration = testConfiguration()
        configuration.bands = [try! FrequencyBand(100, 140)]
        configuration.roles = .init(theta: 0, alpha: 0, beta: 0)
        #expect(throws: EEGError.self) { try EEGEngine(configuration) }
        configuration = testConfiguration(baseline: 0.5)
        #expect(throws: EEGError.self) { try EEGEngine(configuration) }
        configuration = testConfiguration()
        configuration.hop = 0
        #expect(throws: EEGError.self) { try EEGEngine(configuration) }
    }
}
