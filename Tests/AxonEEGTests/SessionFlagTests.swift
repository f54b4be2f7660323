// The SDK's state flags follow the engine: a restarted baseline runs again, and a run that ends on its own ends.

import AxonStreams
import Foundation
import StreamTestSupport
import Testing

@testable import AxonEEG

@Suite("Session flags follow the engine", .serialized)
struct SessionFlagTests {
    /// Frames written only up to a limit the test raises, so the session cannot run ahead of what is checked.
    final class GatedSource: SampleSource, @unchecked Sendable {
        // Sendable invariant: `limit` is a locked word; everything else is touched only on the source thread.
        let descriptor = StreamDescriptor(
            name: "gated", contentType: .eeg, channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV") },
            nominalRate: 250, format: .float64, sourceID: "gated")
        let limit = ThreadLocked(0)
        let total: Int
        init(total: Int) { self.total = total }

        func run(into writer: FrameWriter) throws {
            var index = 0
            while index < total, !writer.isStopRequested {
                if index >= limit.withLock({ $0 }) || writer.freeCapacity == 0 {
                    sched_yield()
                    continue
                }
                let t = Double(index) / 250
                writer.write((0..<4).map { 20 * sin(2 * .pi * 10 * t + Double($0)) + 3 * sin(2 * .pi * 23 * t) },
                             counter: UInt64(index))
                index += 1
            }
        }
    }

    /// Waits (up to 60 s) until the session's state satisfies `condition`.
    static func until(_ session: EEGSession, _ condition: (EEGSession.State) -> Bool) async -> Bool {
        let held = try? await waitUntil(seconds: 60, interval: 0.001, onTimeout: .returnFalse) {
            condition(session.state)
        }
        return held ?? false
    }

    @Test("a second startBaseline makes the baseline run again and stops indicators until it completes")
    func baselineRestart() async throws {
        let source = GatedSource(total: 10 * 250)
        let session = try EEGSession(
            source: source, configuration: testConfiguration(baseline: 2, indicator: 1),
            options: .init(publishSamples: false))
        session.startBaseline()
        try session.start()
        // 3 s: the 2 s baseline completes at sample 499, indicators at 499 and 749.
        source.limit.withLock { $0 = 750 }
        #expect(await Self.until(session) { $0.hasStartedIndicators && $0.baselineState == .complete && $0.indicators == 2 })
        // Restart: the next samples collect a new baseline; indicators stop.
        session.startBaseline()
        source.limit.withLock { $0 = 1000 }
        #expect(await Self.until(session) { $0.baselineState == .collecting && !$0.hasStartedIndicators })
        // It completes 2 s after the restart (sample 1249), and indicators come back.
        source.limit.withLock { $0 = 1500 }
        #expect(await Self.until(session) { $0.hasStartedIndicators && $0.baselineState == .complete && $0.indicators >= 3 })
        session.stop()
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
