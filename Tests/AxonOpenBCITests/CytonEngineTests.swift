import AxonEEG
import AxonOpenBCI
import AxonRecording
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

/// The EEG engine fed by a Cyton: what `axon demo cyton:PATH` runs against the simulated board.
@Suite("Cyton through the engine", .serialized)
struct CytonEngineTests {
    static let labels = ["EXG2", "EXG3", "EXG6", "EXG7"]

    /// The indicators of an EEG session, collected until the session ends.
    static func indicators(of session: EEGSession, until finished: @escaping @Sendable () -> Bool) async throws
        -> [ActivityIndicators]
    {
        let collector = Task { () -> [ActivityIndicators] in
            var all: [ActivityIndicators] = []
            for await indicator in session.indicators { all.append(indicator) }
            return all
        }
        _ = try await waitUntil(seconds: 120, interval: 0.02, onTimeout: .returnFalse, finished)
        session.stop()
        return await collector.value
    }

    @Test("the simulated Cyton's stream gives the eyes-closed Relaxation, indicator for indicator as the replay")
    func relaxation() async throws {
        let recording = try RecordingReader.read(path: CytonRoundTripTests.recordingPath).segment(from: 0, to: 86)
        let configuration = EEGEngine.Configuration(
            sampleRate: 250, channelLabels: Self.labels, baselineDuration: 12, indicatorPeriod: 10)

        // The replay `make demo` runs, as fast as possible: the reference.
        let selected = try recording.selecting(channels: Self.labels)
        let replay = RecordingReplaySource(recording: selected, options: .init(speed: .asFastAsPossible))
        let reference = try EEGSession(
            source: replay, configuration: configuration,
            options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
        reference.startBaseline()
        try reference.start()
        let expected = try await Self.indicators(of: reference) { reference.statistics().delivered >= 21_500 }

        // The same recording as 33-byte packets on a pty, 20× real time.
        let simulator = try SimulatedCyton(
            configuration: .init(values: recording.values, channelCount: 8, speed: 20))
        try simulator.start()
        defer { simulator.stop() }
        let board = CytonBoard(path: simulator.path)
        _ = try board.connect()
        let source = try CytonSource(board: board, channels: Self.labels)
        let session = try EEGSession(
            source: source, configuration: configuration,
            options: .init(publishSamples: false, pipeline: .init(timeline: source.timelineConfiguration)))
        session.startBaseline()
        try session.start()
        let started = HostClock.now()
        let got = try await Self.indicators(of: session) { session.statistics().delivered >= 21_500 }
        print(
            "Cyton through the engine: \(session.statistics().delivered) samples in \(HostClock.now() - started) s, "
                + "zones \(got.map { "\($0.activity.zone)" }.joined(separator: " "))")

        #expect(got.count == 8 && expected.count == 8)
        #expect(got.map(\.sampleIndex) == expected.map(\.sampleIndex))
        #expect(got.map(\.activity) == expected.map(\.activity))
        #expect(got.map { $0.channels.map(\.level) } == expected.map { $0.channels.map(\.level) })
        // Eyes closed from ≈28 s to ≈76 s: the indicators ending at 32, 42, 52, 62 and 72 s say Relaxation.
        for indicator in got where (32 * 250...72 * 250).contains(indicator.sampleIndex + 1) {
            #expect(indicator.activity.zone == .relaxation)
        }
        #expect(got.first?.activity.zone == .normalActivity)
    }
}
