// The ASR stage's delay on the time axis: an impulse at a known time, through replay → ring → ASR → engine.

import AxonDSP
import AxonEEG
import AxonRecording
import Foundation
import Testing

@testable import AxonStreams

@Suite("ASR stage: the delay is carried into the frames' times", .serialized)
struct ASRTimingTests {
    static let rate = 250.0
    static let channels = 4
    static let seconds = 40.0
    /// Unix time of the recording's first frame.
    static let origin = 1_700_000_000.0
    /// The impulse: frame (30 s into the recording) and amplitude on channel 0, in noise standard deviations.
    static let impulseFrame = 7500
    static let impulseAmplitude = 40.0

    /// Four channels of white noise (σ = 10 µV) with one impulse on channel 0 at ``impulseFrame``.
    static func recording() -> Recording {
        let frames = Int(seconds * rate)
        var noise = NoiseGenerator(seed: 39)
        var values = (0..<(frames * channels)).map { _ in 10 * noise.gaussian() }
        values[impulseFrame * channels] += 10 * impulseAmplitude
        let descriptor = StreamDescriptor(
            name: "impulse", contentType: .eeg,
            channels: (0..<channels).map { ChannelInfo(label: "ch\($0)", unit: "µV") }, nominalRate: rate,
            format: .float32, sourceID: "asr-timing")
        return Recording(
            descriptor: descriptor, values: values, timestamps: (0..<frames).map { origin + Double($0) / rate })
    }

    /// Replays `recording` through `stage` and the engine to its end (a baseline of `baselineSeconds` requested
    /// before the start, if given) and returns the finished session.
    static func finishedSession(
        _ recording: Recording, stage: ASRStage, baselineSeconds: Double?, publishSamples: Bool
    ) throws -> EEGSession {
        let configuration = EEGEngine.Configuration(
            channelLabels: recording.channelLabels, baselineDuration: baselineSeconds ?? 5, rigor: .estimate)
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
        let session = try EEGSession(
            source: replay, configuration: configuration, stages: [stage],
            options: .init(
                timeBase: .device, publishSamples: publishSamples, bufferLimit: 1 << 20, sampleCapacity: 1 << 15,
                pipeline: replay.pipelineConfiguration()))
        if baselineSeconds != nil { session.startBaseline() }
        try session.start()
        session.waitUntilFinished()
        return session
    }

    /// Replays the recording through the ASR stage (calibrated on its first 20 s, with a cutoff so high that
    /// nothing is removed: the test measures where the samples land, not what is cleaned) and the engine; returns
    /// the engine's samples and the stage.
    static func run(_ recording: Recording) async throws -> (samples: [EEGSample], stage: ASRStage) {
        let calibrationFrames = Array(recording.values[0..<(Int(20 * rate) * channels)])
        let calibration = try ASRStage(cutoff: 1e6).calibration(
            cleanFrames: calibrationFrames, channelCount: channels, sampleRate: rate)
        let stage = ASRStage(calibration: .given(calibration), cutoff: 1e6)
        let session = try finishedSession(recording, stage: stage, baselineSeconds: nil, publishSamples: true)
        var samples: [EEGSample] = []
        for await sample in session.samples { samples.append(sample) }
        return (samples, stage)
    }

    @Test("an impulse at a known time leaves the ASR stage at that time (within one sample)")
    func impulseTime() async throws {
        let recording = Self.recording()
        let (samples, stage) = try await Self.run(recording)
        #expect(stage.delay == 77)
        #expect(samples.count == recording.frameCount)
        let peak = try #require(samples.max { abs($0.values[0]) < abs($1.values[0]) })
        let expected = (Self.origin + Double(Self.impulseFrame) / Self.rate) * 1000
        let offset = peak.timeframe - expected
        print("ASR timing: impulse at \(Self.impulseFrame) (\(Self.impulseFrame * 4) ms), peak out of the engine's"
            + " samples \(offset) ms from it (delay \(stage.delay) frames)")
        #expect(abs(offset) <= 1000 / Self.rate / 2, "impulse lands \(offset) ms from its time")
        // The sample times stay one period apart: the first `delay` frames (the delay line's zeros) come before
        // the recording's first frame.
        let first = try #require(samples.first)
        #expect(abs(first.timeframe - (Self.origin - Double(stage.delay) / Self.rate) * 1000) < 1e-3)
        let steps = zip(samples.dropFirst(), samples).map { $0.timeframe - $1.timeframe }
        #expect(steps.allSatisfy { abs($0 - 4) < 1e-3 })
    }

    /// Replays the recording through an ASR stage calibrating on its first `calibrationSeconds` and the engine,
    /// with a baseline of `baselineSeconds` requested before the start; returns the spectrum frames and the stage.
    static func warmUpRun(calibrationSeconds: Double, baselineSeconds: Double) async throws
        -> (frames: [SpectrumFrame], stage: ASRStage)
    {
        let recording = recording()
        let stage = ASRStage(calibration: .firstSeconds(calibrationSeconds))
        let session = try finishedSession(
            recording, stage: stage, baselineSeconds: baselineSeconds, publishSamples: false)
        var frames: [SpectrumFrame] = []
        for await frame in session.spectra { frames.append(frame) }
        return (frames, stage)
    }

    @Test("the default calibration on the stream's first seconds: the baseline waits until the output is cleaned")
    func baselineAfterCalibration() async throws {
        let (frames, stage) = try await Self.warmUpRun(calibrationSeconds: 20, baselineSeconds: 10)
        #expect(stage.isCalibrated && !stage.isWarmingUp)
        let collecting = frames.filter { $0.baselineState == .collecting }
        let first = try #require(collecting.first)
        // The window of the baseline's first frame: its first sample must come out of the stage cleaned, i.e.
        // after the calibration period and the delay line's frames behind it (on today's main the baseline
        // starts with the stream, on frames the stage passes through uncleaned while it calibrates).
        let warm = Int(20 * Self.rate) + stage.delay
        let window = EEGEngine.Configuration().windowSize
        print("ASR warm-up: baseline's first frame at sample \(first.sampleIndex) (\(first.sampleIndex * 4) ms;"
            + " its window from \(first.sampleIndex - window + 1)); calibration + delay end at sample \(warm)")
        #expect(first.sampleIndex - window + 1 >= warm)
        // … and no later than the first spectrum (one hop apart) whose window is all settled output.
        #expect(first.sampleIndex - window + 1 < warm + EEGEngine.Configuration().hop)
        #expect(frames.contains { $0.baselineState == .complete })
    }
}
