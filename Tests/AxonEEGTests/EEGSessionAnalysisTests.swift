// The analyses `axon analyze` runs through the live path, as library calls: a replay cleaned by ASR, a stream for a
// number of seconds, the cleanest stretch for ASR's calibration, and a configuration fitted to a stream.

import AxonDSP
import AxonEEG
import AxonRecording
import AxonStreams
import Foundation
import Testing

@Suite("Session analyses")
struct EEGSessionAnalysisTests {
    static let rate = 250.0
    static let channels = 4

    /// Four channels of a 10 Hz, 20 µV sine over white noise (σ = 2 µV) for `seconds`, `range` declared on each.
    static func recording(seconds: Double, range: ClosedRange<Double>? = nil) -> Recording {
        let frames = Int(seconds * rate)
        var noise = NoiseGenerator(seed: 42)
        var values = [Double](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                values[frame * channels + channel] =
                    20 * sin(2 * .pi * 10 * Double(frame) / rate + Double(channel)) + 2 * noise.gaussian()
            }
        }
        let descriptor = StreamDescriptor(
            name: "alpha", contentType: .eeg,
            channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV", range: range) },
            nominalRate: rate, format: .float32, sourceID: "session-analysis")
        return Recording(descriptor: descriptor, values: values)
    }

    @Test("a configuration fitted to a stream takes its rate, labels, a one-second hop and its declared rail")
    func fitted() {
        let descriptor = Self.recording(seconds: 1, range: -187_500...187_500).descriptor
        let fitted = EEGEngine.Configuration(sampleRate: 500, channelLabels: ["a"]).fitted(to: descriptor, hop: nil)
        #expect(fitted.sampleRate == 250)
        #expect(fitted.hop == 250)
        #expect(fitted.channelLabels == ["T3", "O1", "T4", "O2"])
        #expect(fitted.quality.railMagnitude == 187_500)
        var railed = EEGEngine.Configuration()
        railed.quality.railMagnitude = 1000
        #expect(railed.fitted(to: descriptor, hop: 125).quality.railMagnitude == 1000)
        #expect(railed.fitted(to: descriptor, hop: 125).hop == 125)
        #expect(EEGEngine.Configuration().fitted(to: Self.recording(seconds: 1).descriptor, hop: nil)
            .quality.railMagnitude == nil)
    }

    @Test("a clean recording's cleanest stretch is its first minute; a shorter one is the whole of it")
    func cleanestStretch() throws {
        for (seconds, expected) in [(90.0, 60.0), (30.0, 30.0)] {
            let recording = Self.recording(seconds: seconds)
            let configuration = EEGEngine.Configuration().fitted(to: recording.descriptor, hop: nil)
            let span = try EEGOfflineAnalysis.cleanestStretch(
                configuration: configuration, frameCount: recording.frameCount,
                value: { recording.value(frame: $0, channel: $1) }, time: { recording.time(ofFrame: $0) })
            #expect(span.from == 0)
            #expect(span.to == expected)
        }
    }

    @Test("a replay through ASR reports every frame and the tone at 10 Hz in every channel")
    func replayWithASR() async throws {
        let recording = Self.recording(seconds: 40)
        let configuration = EEGEngine.Configuration().fitted(to: recording.descriptor, hop: nil)
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
        let report = try await EEGSessionAnalysis.runWithASR(
            source: replay, pipeline: replay.pipelineConfiguration(),
            calibrationFrames: Array(recording.values[0..<(Int(20 * Self.rate) * Self.channels)]),
            configuration: configuration, baselineSeconds: nil, powerBands: .standard,
            sampleCount: recording.frameCount)
        #expect(report.samples == 10_000)
        #expect(report.frames >= 38)  // one spectrum a second once the first window and ASR's delay are full
        #expect(report.frames <= 40)
        #expect(report.channels.map(\.label) == ["T3", "O1", "T4", "O2"])
        for channel in report.channels {
            let alpha = try #require(channel.bands.first { $0.low <= 10 && 10 <= $0.high })
            #expect(abs((alpha.median ?? 0) - 10) < 0.5, "\(channel.label): \(alpha.median ?? .nan) Hz")
        }
    }

    @Test("a stream analysed for a number of seconds stops there and counts what was delivered")
    func liveSeconds() async throws {
        let recording = Self.recording(seconds: 30)
        let configuration = EEGEngine.Configuration().fitted(to: recording.descriptor, hop: nil)
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
        var started = 0
        let (report, statistics) = try await EEGSessionAnalysis.live(
            source: replay, timeline: .init(clock: nil), configuration: configuration, baselineSeconds: nil,
            powerBands: .standard, seconds: 10
        ) { started += 1 }
        #expect(started == 1)
        #expect(report.samples == statistics.delivered)
        #expect(statistics.delivered >= 2500)  // at least the ten seconds asked, at most the recording
        #expect(statistics.delivered <= 7500)
        #expect(report.frames >= 9)
    }
}
