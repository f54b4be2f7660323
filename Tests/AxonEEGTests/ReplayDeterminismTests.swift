import AxonEEG
import AxonRecording
import AxonStreams
import Foundation
import Testing

/// Acceptance: replaying a recording at 1× real time and as fast as possible gives bit-identical engine output.
///
/// REAL TIME: the 1× run takes as long as the recording (the whole OpenBCI file: 89.96 s, eyes open then closed).
@Suite("Replay determinism: 1× real time and as fast as possible give identical spectra and zones", .serialized)
struct ReplayDeterminismTests {
    /// The whole shared recording.
    static let seconds = 89.96

    struct Output {
        var frames: [SpectrumFrame] = []
        var indicators: [ActivityIndicators] = []
        var dropped = 0
        var gaps = 0
    }

    static func replay(_ recording: Recording, speed: RecordingReplaySource.Speed) async throws -> Output {
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: speed))
        let configuration = EEGEngine.Configuration(
            channelLabels: recording.channelLabels, baselineDuration: 12, indicatorPeriod: 10, rigor: .estimate)
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
                all += [band.dominantFrequency ?? .nan, band.peakPower ?? .nan, band.power, band.relativePower]
            }
        }
        return all
    }

    /// Runs both replays and compares them; prints one `RESULT` line and exits non-zero on any difference.
    static func compare() async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path
        let recording = try RecordingReader.read(path: path).selecting(channels: ["EXG2", "EXG3", "EXG6", "EXG7"])
        let started = Date()
        let slow = try await replay(recording, speed: .realTime(multiplier: 1))
        let elapsed = Date().timeIntervalSince(started)
        let fast = try await replay(recording, speed: .asFastAsPossible)
        var identicalFrames = 0
        for (a, b) in zip(slow.frames, fast.frames) {
            let x = doubles(a)
            let y = doubles(b)
            let same =
                a.sampleIndex == b.sampleIndex && a.counter == b.counter && a.filledSamples == b.filledSamples
                && a.baselineState == b.baselineState && x.count == y.count
                && zip(x, y).allSatisfy { $0.bitPattern == $1.bitPattern }
            if same { identicalFrames += 1 }
        }
        var identicalIndicators = 0
        for (a, b) in zip(slow.indicators, fast.indicators) {
            let same =
                a.sampleIndex == b.sampleIndex && a.activity == b.activity && a.channels == b.channels
                && a.timeframe.bitPattern == b.timeframe.bitPattern && a.zScores.count == b.zScores.count
                && zip(a.zScores, b.zScores).allSatisfy { $0.bitPattern == $1.bitPattern }
            if same { identicalIndicators += 1 }
        }
        print(
            "RESULT frames \(recording.frameCount) spectra \(slow.frames.count)/\(fast.frames.count) identical "
                + "\(identicalFrames) indicators \(slow.indicators.count)/\(fast.indicators.count) identical "
                + "\(identicalIndicators) dropped \(slow.dropped + fast.dropped) gaps \(slow.gaps + fast.gaps) "
                + "zones \(fast.indicators.map { "\($0.activity.zone)" }.joined(separator: ",")) elapsed \(elapsed)")
        let allSame =
            identicalFrames == fast.frames.count && slow.frames.count == fast.frames.count
            && identicalIndicators == fast.indicators.count && slow.indicators.count == fast.indicators.count
        exit(allSame ? 0 : 1)
    }

    /// The comparison runs in a child process (an exit test): FFTW's planner reuses wisdom that other tests in the
    /// same process leave behind (an `FFTW_MEASURE` plan of the same size satisfies a later `FFTW_ESTIMATE`
    /// request), so two sessions in a busy test process can get different FFT algorithms and differ in the last
    /// bits for a reason that has nothing to do with replay speed. A fresh process gives both runs the same plan.
    @Test("the OpenBCI recording: every spectrum Double and every zone identical at 1× and full speed [REAL TIME 90 s]")
    func realTimeEqualsFast() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            try await ReplayDeterminismTests.compare()
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let line = output.split(separator: "\n").first { $0.hasPrefix("RESULT") }.map(String.init) ?? output
        print("replay determinism: \(line)")
        // 22,490 samples: windows end at 255, 505, …, 22255 → 89 spectra; an indicator when the 12 s baseline ends
        // (sample 2999) and every 10 s after: 8. The eyes-closed indicators read Relaxation.
        #expect(
            line.hasPrefix("RESULT frames 22490 spectra 89/89 identical 89 indicators 8/8 identical 8 dropped 0 gaps 0"))
        #expect(line.contains("Relaxation"))
        let elapsed = line.split(separator: " ").last.flatMap { Double($0) } ?? 0
        #expect(elapsed > Self.seconds - 1, "the 1× run took \(elapsed) s")
    }
}
