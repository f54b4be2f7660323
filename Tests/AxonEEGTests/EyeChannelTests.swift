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

    /// The engine over `channels` of `recording`, labelled `labels`: the times of the windows flagged `eyes`.
    static func eyeWindows(_ recording: Recording, channels: [String], labels: [String]) throws -> [Double] {
        let picked = try recording.selecting(channels: channels)
        var configuration = EEGEngine.Configuration(windowSize: 256, hop: Int(picked.sampleRate.rounded()))
        configuration.sampleRate = picked.sampleRate
        configuration.channelLabels = labels
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
