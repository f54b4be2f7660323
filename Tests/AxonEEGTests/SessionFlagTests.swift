// The SDK's state flags follow the engine: a restarted baseline runs again, and a run that ends on its own ends.

import AxonStreams
import Testing

@testable import AxonEEG

@Suite("Session flags follow the engine", .serialized)
struct SessionFlagTests {
    @Test("a second startBaseline makes the baseline run again and stops indicators until it completes")
    func baselineRestart() async throws {
        // Long enough for a loaded machine; stopped as soon as the second baseline has completed.
        let source = SimulatedSource(configuration: .init(noise: 2, duration: 120, realTime: true, speed: 3))
        let session = try EEGSession(
            source: source, configuration: testConfiguration(baseline: 2, indicator: 1),
            options: .init(publishSamples: false))
        session.startBaseline()
        try session.start()
        var phase = 0
        for await _ in session.spectra {
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
            if phase == 3 { break }
        }
        session.stop()
        #expect(phase == 3)
        #expect(!session.state.hasStarted)
    }

    @Test("a run that ends on its own is no longer started, with no stop() or wait; quality comes with every spectrum")
    func endsOnItsOwn() async throws {
        let source = SimulatedSource(configuration: .init(noise: 2, duration: 10, realTime: false))
        let session = try EEGSession(
            source: source, configuration: testConfiguration(baseline: 2, indicator: 1),
            options: .init(publishSamples: false, pipeline: .init(ringCapacity: 1 << 14)))
        try session.start()
        var spectra: [SpectrumFrame] = []
        for await frame in session.spectra { spectra.append(frame) }
        #expect(!session.state.hasStarted)
        session.waitUntilFinished()
        var quality: [SignalQualityFrame] = []
        for await frame in session.quality { quality.append(frame) }
        #expect(spectra.count == 9 && quality.count == spectra.count)
        #expect(zip(quality, spectra).allSatisfy { $0.sampleIndex == $1.sampleIndex && $0.channels.count == 4 })
        #expect(quality.allSatisfy { $0.channels.allSatisfy { $0.quality.usable } })
    }
}
