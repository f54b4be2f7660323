import AxonEEG
import AxonRecording
import AxonStreams
import Foundation
import Testing

/// The engine on someone else's EEG: the OpenBCI GUI's sample recording (datasets/README.md), replayed through the
/// pipeline as a device would stream it.
@Suite("Real EEG: OpenBCI eyes-closed recording through replay → ring → engine", .serialized)
struct RealEEGTests {
    static var openBCIPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path
    }

    /// Replays EXG6 and EXG7 (the occipital pair with the strongest alpha) and returns every spectrum frame.
    static func replayOccipital() async throws -> [SpectrumFrame] {
        let recording = try RecordingReader.read(path: openBCIPath).selecting(channels: ["EXG6", "EXG7"])
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
        let session = try EEGSession(
            source: replay,
            configuration: .init(channelLabels: ["EXG6", "EXG7"], rigor: .estimate),
            options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
        try session.start()
        session.waitUntilFinished()
        #expect(session.statistics().dropped == 0 && session.statistics().gapRecords == 0)
        var frames: [SpectrumFrame] = []
        for await frame in session.spectra { frames.append(frame) }
        return frames
    }

    /// Frames whose whole window lies inside `[from, to]` seconds.
    static func frames(_ frames: [SpectrumFrame], from: Double, to: Double) -> [SpectrumFrame] {
        frames.filter { frame in
            let end = Double(frame.sampleIndex + 1) / 250
            return end - 256.0 / 250 >= from && end <= to
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    @Test("eyes closed: median alpha peak on EXG6 and EXG7 is 11.5 ± 0.5 Hz; alpha's share rises")
    func eyesClosedAlpha() async throws {
        let all = try await Self.replayOccipital()
        #expect(all.count == 89)  // 22,490 samples: windows end at 255, 505, …, 22255
        let closed = Self.frames(all, from: 34, to: 76)
        let open = Self.frames(all, from: 16, to: 28)
        #expect(closed.count == 41 && open.count == 11)
        for channel in 0..<2 {
            let peak = Self.median(closed.compactMap { $0.channels[channel].bands[1].dominantFrequency })
            #expect(abs(peak - 11.5) < 0.5, "\(all[0].channels[channel].label): median alpha peak \(peak) Hz")
            let shareClosed = Self.median(closed.map { $0.channels[channel].bands[1].relativePower })
            let shareOpen = Self.median(open.map { $0.channels[channel].bands[1].relativePower })
            #expect(shareClosed > shareOpen + 0.1, "alpha share closed \(shareClosed), open \(shareOpen)")
        }
        // Frames carry the recording's own time: the first window ends 255 samples after its first timestamp.
        #expect(abs(all[0].timeframe - 1_557_936_053_329 - 255 * 4) < 60)
    }

    @Test("offline analysis of the same file gives the same frames as the replay")
    func offlineMatchesReplay() async throws {
        let replayed = try await Self.replayOccipital()
        let recording = try RecordingReader.read(path: Self.openBCIPath).selecting(channels: ["EXG6", "EXG7"])
        var offline: [SpectrumFrame] = []
        let report = try EEGOfflineAnalysis.run(
            configuration: .init(channelLabels: ["EXG6", "EXG7"], rigor: .estimate),
            frameCount: recording.frameCount, baselineSeconds: nil,
            value: { recording.value(frame: $0, channel: $1) }, time: { recording.time(ofFrame: $0) },
            onFrame: { offline.append($0) })
        #expect(report.frames == 89 && report.zones.isEmpty)
        #expect(offline.map(\.channels) == replayed.map(\.channels))
    }
}
