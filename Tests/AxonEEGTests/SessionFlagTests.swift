// The SDK's state flags follow the engine: a restarted baseline runs again, and a run that ends on its own ends.

import AxonStreams
import Testing

@testable import AxonEEG

@Suite("Session flags follow the engine", .serialized)
struct SessionFlagTests {
    @Test("a second startBaseline makes the baseline run again and stops indicators until it completes; a run that ends on its own is no longer started; quality comes with every spectrum")
    func restartAndEnd() async throws {
        let source = SimulatedSource(configuration: .init(noise: 2, duration: 9, realTime: true, speed: 3))
        let session = try EEGSession(
            source: source, configuration: testConfiguration(baseline: 2, indicator: 1),
            options: .init(publishSamples: false))
        session.startBaseline()
        try session.start()
        var phase = 0
        var spectra: [SpectrumFrame] = []
        for await frame in session.spectra {
            spectra.append(frame)
            let state = session.state
            switch phase {
            case 0 where state.hasStartedIndicators && state.baselineState == .complete:
                session.startBaseline()
                phase = 1
            case 1 where state.baselineState == .collecting && !state.hasStartedIndicators:
                phase = 2
            case 2 where state.hasStartedIndicators && state.baselineState == .complete:
                phase = 3
            default: break
            }
        }
        #expect(phase == 3)
        // The source ended by itself: no stop() and no wait, and the session says so.
        #expect(!session.state.hasStarted)
        session.waitUntilFinished()
        // The signal-quality stream has one frame per spectrum, with the same quality.
        var quality: [SignalQualityFrame] = []
        for await frame in session.quality { quality.append(frame) }
        #expect(quality.count == spectra.count && spectra.count >= 7)
        #expect(zip(quality, spectra).allSatisfy { $0.sampleIndex == $1.sampleIndex && $0.channels.count == 4 })
        #expect(quality.allSatisfy { $0.channels.allSatisfy { $0.quality.usable } })
    }
}
