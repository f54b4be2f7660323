import AxonEEG
import AxonRecording
import AxonStreams
import Foundation
import Testing

/// Acceptance: replaying a recording at 1× real time and as fast as possible gives bit-identical engine output.
///
/// REAL TIME: the 1× run takes as long as the segment (20 s of the OpenBCI recording, 34–54 s, eyes closed).
@Suite("Replay determinism: 1× real time and as fast as possible give identical spectra and zones", .serialized)
struct ReplayDeterminismTests {
    static let seconds = 20.0

    struct Output {
        var frames: [SpectrumFrame] = []
        var indicators: [ActivityIndicators] = []
        var dropped = 0
        var gaps = 0
    }

    static func replay(_ recording: Recording, speed: RecordingReplaySource.Speed) async throws -> Output {
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: speed))
        let configuration = EEGEngine.Configuration(
            channelLabels: recording.channelLabels, baselineDuration: 6, indicatorPeriod: 2, rigor: .estimate)
        let session = try EEGSession(
            source: replay, configuration: configuration,
            options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
        session.startBaseline()
        try session.start()
        session.waitUntilFinished()
        var output = Output()
        for await frame in session.spectra { output.frames.append(frame) }
        for await indicator in session.indicators { output.indicators.append(indicator) }
        output.dropped = session.statistics().dropped
        output.gaps = session.statistics().gapRecords
        return output
    }

    /// Every Double of a frame, in a fixed order.
    static func doubles(_ frame: SpectrumFrame) -> [Double] {
        var all = [frame.timeframe, frame.binWidth]
        for channel in frame.channels {
            all.append(channel.referencePower)
            all += channel.spectrum
            for band in channel.bands {
                all += [band.dominantFrequency, band.peakPower, band.power, band.relativePower]
            }
        }
        return all
    }

    @Test("20 s of OpenBCI EEG: every spectrum Double and every zone identical at 1× and full speed")
    func realTimeEqualsFast() async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path
        let recording = try RecordingReader.read(path: path).selecting(channels: ["EXG2", "EXG3", "EXG6", "EXG7"])
            .segment(from: 34, to: 34 + Self.seconds)
        #expect(recording.frameCount == 5000)
        let started = Date()
        let slow = try await Self.replay(recording, speed: .realTime(multiplier: 1))
        let elapsed = Date().timeIntervalSince(started)
        let fast = try await Self.replay(recording, speed: .asFastAsPossible)

        #expect(elapsed > Self.seconds - 1, "the 1× run took \(elapsed) s")
        #expect(slow.dropped == 0 && fast.dropped == 0 && slow.gaps == 0 && fast.gaps == 0)
        // 5000 samples: windows end at 255, 505, …, 4755 → 19 spectra; an indicator when the 6 s baseline ends and
        // every 2 s after: 8 (the last at the last sample).
        #expect(fast.frames.count == 19)
        #expect(slow.frames.count == fast.frames.count)
        #expect(fast.indicators.count == 8)
        #expect(fast.indicators.first?.sampleIndex == 1499)
        #expect(slow.indicators.count == fast.indicators.count)
        for (a, b) in zip(slow.frames, fast.frames) {
            #expect(a.sampleIndex == b.sampleIndex && a.counter == b.counter && a.filledSamples == b.filledSamples)
            #expect(a.baselineState == b.baselineState)
            let x = Self.doubles(a)
            let y = Self.doubles(b)
            #expect(x.count == y.count)
            #expect(zip(x, y).allSatisfy { $0.bitPattern == $1.bitPattern }, "frame \(a.counter) differs")
        }
        for (a, b) in zip(slow.indicators, fast.indicators) {
            #expect(a.sampleIndex == b.sampleIndex && a.activity == b.activity)
            #expect(a.channels == b.channels)
            #expect(zip(a.zScores, b.zScores).allSatisfy { $0.bitPattern == $1.bitPattern })
            #expect(a.timeframe.bitPattern == b.timeframe.bitPattern)
        }
        print("replay determinism: \(fast.frames.count) spectra, \(fast.indicators.count) indicators identical; "
            + "zones \(fast.indicators.map { "\($0.activity.zone)" }.joined(separator: ", ")); 1× took \(elapsed) s")
    }
}
