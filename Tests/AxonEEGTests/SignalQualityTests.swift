// Signal quality and artifacts on someone else's EEG: the OpenBCI GUI's recording with blinks, a jaw clench and
// eyes-closed alpha (datasets/README.md).

import AxonRecording
import AxonStreams
import Testing

@testable import AxonEEG

@Suite("Signal quality and artifacts on the OpenBCI recording", .serialized)
struct SignalQualityTests {
    static func analyze(
        _ recording: Recording, channels: [String]? = nil, baseline: Double? = nil, excludeArtifacts: Bool = true,
        rail: Double? = nil, value: ((Int, Int) -> Double)? = nil
    ) throws -> EEGAnalysisReport {
        let recording = try channels.map { try recording.selecting(channels: $0) } ?? recording
        var configuration = EEGEngine.Configuration(
            sampleRate: recording.sampleRate, channelLabels: recording.channelLabels, rigor: .estimate)
        configuration.quality.excludeArtifacts = excludeArtifacts
        configuration.quality.railMagnitude = rail
        return try EEGOfflineAnalysis.run(
            configuration: configuration, frameCount: recording.frameCount, baselineSeconds: baseline,
            value: value ?? { recording.value(frame: $0, channel: $1) }, time: { Double($0) / 250 })
    }

    /// Fraction of the windows centred in `[from, to]` seconds that carry `kind` (report times are window ends;
    /// a window is 256 samples, 1.024 s).
    static func flagged(_ report: EEGAnalysisReport, _ kind: String, from: Double, to: Double) -> Double {
        let ends: [Double] = (0..<report.frames).map { frame in Double(256 + 250 * frame) / 250 }
        let inside = { (end: Double) in end - 0.512 >= from && end - 0.512 <= to }
        let windows = ends.filter(inside)
        let hits = report.artifacts.filter { inside($0.time) && $0.kinds.contains(kind) }
        return Double(hits.count) / Double(windows.count)
    }

    @Test("blinks (0–6 s, 14–17 s) and the jaw clench (8–13 s) are flagged; the eyes-closed minute is clean")
    func artifactSegments() throws {
        let report = try Self.analyze(try RecordingReader.read(path: RealEEGTests.openBCIPath))
        let blinksEarly = Self.flagged(report, "eyes", from: 0, to: 6)
        let blinksLater = Self.flagged(report, "eyes", from: 14, to: 17)
        let jaw = Self.flagged(report, "muscle", from: 8, to: 13)
        let clean = report.artifacts.filter { $0.time - 0.512 >= 30 && $0.time - 0.512 <= 75 }
        #expect(blinksEarly >= 0.8, "blinks 0–6 s: \(blinksEarly)")
        #expect(blinksLater >= 0.66, "blinks 14–17 s: \(blinksLater)")
        #expect(jaw == 1, "jaw clench 8–13 s: \(jaw)")
        #expect(clean.isEmpty, "eyes closed 30–75 s: \(clean)")
    }

    @Test("with artifacts left out of the 12 s baseline, the demo's eyes-closed zones are Relaxation as before")
    func artifactsLeftOutOfBaseline() throws {
        let recording = try RecordingReader.read(path: RealEEGTests.openBCIPath).segment(from: 0, to: 86)
        let channels = ["EXG2", "EXG3", "EXG6", "EXG7"]
        let handled = try Self.analyze(recording, channels: channels, baseline: 12)
        let kept = try Self.analyze(recording, channels: channels, baseline: 12, excludeArtifacts: false)
        for report in [handled, kept] {
            let eyesClosed = report.zones.filter { $0.time >= 32 && $0.time <= 72 }
            #expect(eyesClosed.count == 5 && eyesClosed.allSatisfy { $0.zone == "Relaxation" }, "\(eyesClosed)")
        }
        // Every flagged window is left out, and only those.
        #expect(handled.excludedFrames == handled.artifacts.count && handled.excludedFrames >= 8)
        #expect(kept.excludedFrames == 0 && kept.artifacts == handled.artifacts)
    }

    @Test("two channels clamped at the ±187,500 µV rail for 10 % of their samples are flagged railed with that fraction")
    func railedChannels() throws {
        let recording = try RecordingReader.read(path: RealEEGTests.openBCIPath)
        let rail = 187_500.0
        // The first second of every ten on EXG1 (positive rail) and EXG5 (negative rail).
        let report = try Self.analyze(recording, rail: rail) { frame, channel in
            let value = recording.value(frame: frame, channel: channel)
            guard frame % 2500 < 250 else { return value }
            return channel == 1 ? rail : channel == 5 ? -rail : value
        }
        for (index, channel) in report.channels.enumerated() {
            if index == 1 || index == 5 {
                #expect(abs(channel.quality.railedFraction - 0.10) <= 0.01, "\(channel.label): \(channel.quality.railedFraction)")
                #expect(channel.quality.unusableFrames >= 9)
            } else {
                #expect(channel.quality.railedFraction == 0, "\(channel.label): \(channel.quality.railedFraction)")
                #expect(channel.quality.unusableFrames == 0)
            }
        }
    }
}

@Suite("ASR ahead of the engine on the OpenBCI recording", .serialized)
struct ASRArtifactTests {
    /// Replays the demo's channels through ring → ASR (calibrated on the clean eyes-closed 30–60 s) → engine.
    static func replay(asr: Bool) async throws -> EEGAnalysisReport {
        let recording = try RecordingReader.read(path: RealEEGTests.openBCIPath)
            .selecting(channels: ["EXG2", "EXG3", "EXG6", "EXG7"]).segment(from: 0, to: 86)
        var stages: [any SampleProcessor] = []
        if asr {
            let clean = try recording.segment(from: 30, to: 60)
            let frames = (0..<clean.frameCount).flatMap { frame in (0..<4).map { clean.value(frame: frame, channel: $0) } }
            let calibration = try ASRStage().calibration(cleanFrames: frames, channelCount: 4, sampleRate: 250)
            stages = [ASRStage(calibration: .given(calibration))]
        }
        var configuration = EEGEngine.Configuration(
            channelLabels: recording.channelLabels, baselineDuration: 12, rigor: .estimate)
        configuration.quality.excludeArtifacts = true
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
        let session = try EEGSession(
            source: replay, configuration: configuration, stages: stages,
            options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
        session.startBaseline()
        try session.start()
        session.waitUntilFinished()
        var builder = EEGAnalysisReport.Builder(configuration: configuration, baselineSeconds: 12)
        for await frame in session.spectra { builder.add(frame) }
        for await indicator in session.indicators { builder.add(indicator) }
        return builder.report()
    }

    @Test("cleaned by ASR, fewer of the recording's windows are contaminated and left out (blinks, jaw clench)")
    func fewerExcludedWindows() async throws {
        let raw = try await Self.replay(asr: false)
        let cleaned = try await Self.replay(asr: true)
        print("ASR on the demo's channels: windows left out \(raw.excludedFrames) raw, \(cleaned.excludedFrames) cleaned")
        #expect(cleaned.excludedFrames < raw.excludedFrames)
        // The jaw clench (8–13 s) is mostly repaired: fewer muscle windows there.
        let muscle = { (report: EEGAnalysisReport) in
            report.artifacts.filter { $0.time > 8 && $0.time < 14.1 && $0.kinds.contains("muscle") }.count
        }
        #expect(muscle(cleaned) < muscle(raw))
    }
}
