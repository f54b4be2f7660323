import AxonStreams
import Foundation
import Testing

@testable import AxonEEG

@Suite("EEG session: source → ring → engine → async sequences", .serialized)
struct SessionTests {
    @Test("a simulated headset's spectra, indicators and samples arrive in order, on sample time")
    func simulatedStream() async throws {
        let source = SimulatedSource(
            configuration: .init(
                tones: [[.init(frequency: 10, amplitude: 20), .init(frequency: 5, amplitude: 6),
                         .init(frequency: 20, amplitude: 4)]],
                noise: 3, duration: 40, realTime: false, lostSamples: Set(4000..<4005)))
        let session = try EEGSession(
            source: source, configuration: testConfiguration(baseline: 10, indicator: 5),
            // The simulator runs unpaced: rings large enough for the whole run, so nothing can overflow.
            options: .init(bufferLimit: 20_000, sampleCapacity: 16384, pipeline: .init(ringCapacity: 16384)))
        session.startBaseline()
        try session.start()
        session.waitUntilFinished()

        var frames: [SpectrumFrame] = []
        for await frame in session.spectra { frames.append(frame) }
        var indicators: [ActivityIndicators] = []
        for await indicator in session.indicators { indicators.append(indicator) }
        var samples = 0
        var lastIndex = -1
        var ordered = true
        for await sample in session.samples {
            samples += 1
            ordered = ordered && sample.sampleIndex == lastIndex + 1
            lastIndex = sample.sampleIndex
        }

        // 10,000 samples of which 5 were lost and filled in: 10,000 sample indices, 39 spectra.
        #expect(frames.count == 39)
        #expect(frames.map(\.counter) == Array(0..<39))
        #expect(frames.map(\.sampleIndex) == (0..<39).map { 255 + 250 * $0 })
        #expect(frames.filter { $0.filledSamples == 5 }.map(\.sampleIndex) == [4005, 4255])
        for frame in frames {
            for channel in frame.channels {
                // 3 µV of white noise on a 20 µV alpha tone; the gap's 5 samples are bridged by a line.
                #expect(abs((channel.bands[1].dominantFrequency ?? .infinity) - 10) < (frame.filledSamples > 0 ? 0.3 : 0.2))
                #expect(channel.spectrum.count == 129)
            }
        }
        // Baseline from sample 0 over 2,500 samples; indicators at 2499 and every 1,250 samples after.
        #expect(indicators.map(\.sampleIndex) == (0..<7).map { 2499 + 1250 * $0 })
        #expect(indicators.allSatisfy { $0.activity.zone == .normalActivity })
        #expect(samples == 9995)
        #expect(ordered == false)  // filled-in samples are engine-internal: the raw sequence skips their indices
        let state = session.state
        #expect(state.hasStartedIndicators && state.baselineState == .complete && !state.hasStarted)
        #expect(state.spectra == 39 && state.indicators == 7)
        #expect(session.droppedResults == (0, 0, 0))
        #expect(session.statistics().dropped == 0)
        // Host time base: frames are stamped in ms since 1970 near now.
        #expect(abs(frames[0].timeframe / 1000 - Date().timeIntervalSince1970) < 60)
    }

    @Test("a stream with the wrong channel count is refused")
    func channelMismatch() {
        let source = SimulatedSource(configuration: .init(channelLabels: ["A", "B"], duration: 1, realTime: false))
        #expect(throws: EEGError.channelCountMismatch(expected: 4, actual: 2)) {
            try EEGSession(source: source, configuration: testConfiguration())
        }
    }
}
