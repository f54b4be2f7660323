import AxonEEG
import AxonRecording
import Foundation
import Testing

/// Where blinks are looked for: frontal and temporal sites by their 10-20 label, none on a montage whose labels
/// name only other sites, all channels when labels name no site. Checked on real recordings: PhysioNet's eyes-open
/// baseline on its occipital channels (no blink can be told there), and the OpenBCI GUI's blink recording on the
/// GUI's default montage (Fp1/Fp2 on EXG0/EXG1; blinks at ≈0–6 s, ≈14–17 s and ≈80 s, eyes closed ≈28–76 s).
@Suite("Eye channels and the blink rule")
struct EyeChannelTests {
    static let datasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("datasets")

    @Test(
        "eye channels by label",
        arguments: [
            (["O1..", "Oz..", "O2.."], [Int]()),
            (["T3", "O1", "T4", "O2"], [0, 2]),
            (["EXG0", "EXG1", "EXG2"], [0, 1, 2]),
            (["Fp1.", "Fc5.", "O1.."], [0, 1]),
            (["TP9", "AF7", "AF8", "TP10"], [0, 1, 2, 3]),
            (["Cz", "Pz", "C3", "O2"], []),
            (["ch1", "ch2"], [0, 1]),
        ])
    func eyeChannels(labels: [String], expected: [Int]) {
        #expect(SignalQualityThresholds().eyeChannels(labels: labels) == expected)
    }

    /// The engine over `channels` of `recording` (all when `nil`), labelled `labels` (the recording's when `nil`),
    /// one window a second as `axon analyze` runs it: the times of the windows flagged `eyes`.
    static func eyeWindows(
        _ recording: Recording, channels: [String]? = nil, labels: [String]? = nil,
        quality: SignalQualityThresholds = SignalQualityThresholds()
    ) throws -> [Double] {
        let picked = try channels.map { try recording.selecting(channels: $0) } ?? recording
        var configuration = EEGEngine.Configuration(windowSize: 256, hop: Int(picked.sampleRate.rounded()))
        configuration.sampleRate = picked.sampleRate
        configuration.channelLabels = labels ?? picked.channelLabels
        configuration.quality = quality
        let report = try EEGOfflineAnalysis.run(
            configuration: configuration, frameCount: picked.frameCount, baselineSeconds: nil,
            value: { picked.value(frame: $0, channel: $1) }, time: { picked.time(ofFrame: $0) })
        return report.artifacts.filter { $0.kinds.contains("eyes") }.map(\.time)
    }

    @Test("PhysioNet's eyes-open baseline: no blink windows on O1, Oz, O2 (was most windows)")
    func occipitalChannelsFlagNoBlinks() throws {
        let recording = try RecordingReader.read(
            path: Self.datasets.appendingPathComponent("physionet-eegmmidb/S001R01.edf").path)
        let occipital = ["O1..", "Oz..", "O2.."]
        #expect(try Self.eyeWindows(recording, channels: occipital, labels: occipital).isEmpty)
        // The same recording's frontal pole channels do see the blinks of an eyes-open minute.
        let frontal = ["Fp1.", "Fpz.", "Fp2."]
        let blinks = try Self.eyeWindows(recording, channels: frontal, labels: frontal)
        #expect(!blinks.isEmpty)
        print("PhysioNet S001R01: \(blinks.count) of 60 windows flagged on Fp1/Fpz/Fp2, 0 on O1/Oz/O2")
    }

    static let absolute = SignalQualityThresholds(blinkScale: nil)

    /// PhysioNet's raw EEG is not high-passed: its slow signal swings 70–130 µV in every 1.6 s window on every
    /// channel, so the absolute 100 µV limit flagged all 60 windows of the eyes-open minute. Judged against each
    /// channel's own lower-quartile swing (× 2.5, floored at 100 µV), the flags after the 10 s warm-up fall on the
    /// windows whose frontal-pole signal (Fp1/Fpz/Fp2 mean, 0.5–8 Hz) holds a blink of ≥ 200 µV prominence
    /// (9.7, 14.2, 17.3, 24.3, 37.7, 38.2, 39.3, 40.8, 44.0, 49.1, 55.8 s); the OpenBCI recording, whose slow signal
    /// is 20–40 µV between blinks, keeps every one of its flags.
    @Test("eye flags scale with the recording: PhysioNet S001R01 60 of 60 windows → ≤ 30, OpenBCI blinks kept")
    func blinkLimitScalesWithTheRecording() throws {
        let physionet = try RecordingReader.read(
            path: Self.datasets.appendingPathComponent("physionet-eegmmidb/S001R01.edf").path)
        let before = try Self.eyeWindows(physionet, quality: Self.absolute)
        let after = try Self.eyeWindows(physionet)
        let afterWarmUp = after.filter { $0 > 11 }
        let bigBlinks = [10.6, 14.6, 15.6, 17.6, 18.6, 24.6, 25.6, 38.6, 39.6, 40.6, 41.6, 44.6, 45.6, 49.6, 50.6, 56.6]
        let found = bigBlinks.filter { blink in after.contains { abs($0 - blink) < 0.05 } }
        print("PhysioNet S001R01, 64 channels: \(before.count) of 60 windows flagged absolute, \(after.count) scaled "
            + "(\(afterWarmUp.count) after the warm-up), \(found.count) of \(bigBlinks.count) big-blink windows: "
            + "\(after.map { String(format: "%.1f", $0) })")
        #expect(before.count >= 55)
        #expect(after.count <= 30)
        #expect(afterWarmUp.count <= 20)
        #expect(found.count >= 13)

        let openBCI = try RecordingReader.read(
            path: Self.datasets.appendingPathComponent(
                "openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"
            ).path)
        let inBlinks = { (times: [Double]) in
            times.filter { (0...7).contains($0) || (14...18).contains($0) || (79...82).contains($0) }
        }
        let openBefore = try Self.eyeWindows(openBCI, quality: Self.absolute)
        let openAfter = try Self.eyeWindows(openBCI)
        print("OpenBCI blinks, 8 channels: \(openBefore.count) windows flagged absolute, \(openAfter.count) scaled, "
            + "\(inBlinks(openAfter).count) of \(inBlinks(openBefore).count) in the blink spans kept")
        #expect(inBlinks(openAfter) == inBlinks(openBefore))
        #expect(inBlinks(openAfter).count >= 11)

        // The Muse P300 cut (eyes open; slow swings of at most 20 µV, no blink to be seen) stays unflagged either way.
        let muse = try RecordingReader.read(
            path: Self.datasets.appendingPathComponent("muse-p300/data_2017-02-04-15_45_13-first14s.csv").path)
        #expect(try Self.eyeWindows(muse).isEmpty)
        #expect(try Self.eyeWindows(muse, quality: Self.absolute).isEmpty)
    }

    /// One frontal channel whose slow signal swings 110–290 µV in every window (three slow sines, as raw EEG that
    /// was never high-passed), 20 µV of alpha, and 800 µV blinks at 40.5 and 100.5 s: two minutes, so the 60 s
    /// history has turned over when the second comes.
    @Test("a large slow background: the absolute rule flags every window, the scaled one the blinks alone")
    func scaledLimitOnSyntheticBackground() throws {
        let rate = 250.0
        let blinks = [40.5, 100.5]
        let value = { (frame: Int) -> Double in
            let t = Double(frame) / rate
            let slow = 60 * sin(2 * .pi * 0.7 * t) + 60 * sin(2 * .pi * 1.3 * t + 1) + 60 * sin(2 * .pi * 2.1 * t + 2)
            let blink = blinks.reduce(0) { $0 + 800 * exp(-0.5 * pow((t - $1) / 0.08, 2)) }
            return slow + 20 * sin(2 * .pi * 10 * t) + blink
        }
        func flagged(_ quality: SignalQualityThresholds) throws -> [Double] {
            var configuration = EEGEngine.Configuration(windowSize: 256, hop: 250)
            configuration.sampleRate = rate
            configuration.channelLabels = ["Fp1"]
            configuration.quality = quality
            let report = try EEGOfflineAnalysis.run(
                configuration: configuration, frameCount: 120 * 250, baselineSeconds: nil,
                value: { frame, _ in value(frame) }, time: { Double($0) / rate })
            return report.artifacts.filter { $0.kinds.contains("eyes") }.map(\.time)
        }
        let absolute = try flagged(Self.absolute)
        let scaled = try flagged(SignalQualityThresholds())
        let afterWarmUp = scaled.filter { $0 > 11 }
        print("synthetic slow background: \(absolute.count) of 119 windows flagged absolute, scaled after the warm-up: "
            + "\(afterWarmUp)")
        #expect(absolute.count >= 110)
        #expect(afterWarmUp.allSatisfy { (40.5...42.1).contains($0) || (100.5...102.1).contains($0) })
        #expect(afterWarmUp.contains { $0 < 60 } && afterWarmUp.contains { $0 > 60 })
    }

    @Test("the blink scale's limits are checked")
    func blinkScaleValidation() {
        #expect(throws: EEGError.self) { try SignalQualityThresholds(blinkScale: 0).validate(channelCount: 1) }
        #expect(throws: EEGError.self) { try SignalQualityThresholds(blinkHistory: 0).validate(channelCount: 1) }
        #expect(throws: EEGError.self) { try SignalQualityThresholds(blinkHistory: 1e300).validate(channelCount: 1) }
        #expect(throws: EEGError.self) {
            try SignalQualityThresholds(blinkHistory: 5, blinkWarmUp: 10).validate(channelCount: 1)
        }
        #expect(throws: Never.self) { try SignalQualityThresholds(blinkScale: nil).validate(channelCount: 1) }
    }

    @Test("the OpenBCI blink recording: flags fall on its blinks, not on its eyes-closed minute")
    func blinkRecording() throws {
        let recording = try RecordingReader.read(
            path: Self.datasets.appendingPathComponent(
                "openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"
            ).path)
        let flagged = try Self.eyeWindows(recording, channels: ["EXG0", "EXG1"], labels: ["Fp1", "Fp2"])
        let inBlinks = flagged.filter { (0...7).contains($0) || (14...18).contains($0) || (79...82).contains($0) }
        let eyesClosed = flagged.filter { (32...74).contains($0) }
        print("OpenBCI blinks: \(flagged.count) windows flagged, \(inBlinks.count) in the blink spans, "
            + "\(eyesClosed.count) of 43 in the eyes-closed span: \(flagged.map { String(format: "%.0f", $0) })")
        #expect(inBlinks.count >= 4)
        #expect(eyesClosed.count <= 4)
    }
}
