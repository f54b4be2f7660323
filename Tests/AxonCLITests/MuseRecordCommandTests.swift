import AxonRecording
import Foundation
import StreamTestSupport
import Testing

/// `axon record muse:NAME` keeps the headset's telemetry, accelerometer and gyroscope beside its EEG (issue 39):
/// streams of their own in XDF, files of their own beside an EDF+/BDF+ (the mock bluetoothd's demo Muse sends them
/// as a headband does: 52 Hz motion, telemetry once a second, battery 80 %).
@Suite("axon record: a Muse's auxiliary streams")
struct MuseRecordCommandTests {
    private func record(_ out: URL, extra: [String] = []) throws -> String {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let script = LiveOutputTests.root.appendingPathComponent("scripts/bluez-mock/run.sh").path
        let run = try LiveOutputTests.Run(
            script, [axon, "record", "muse:Muse-0040", "--out", out.path, "--seconds", "4"] + extra,
            directory: LiveOutputTests.root)
        let status = run.finish(seconds: 90)
        let output = run.received.map(\.text).joined(separator: "\n")
        #expect(status == 0, "\(output)")
        return output
    }

    @Test("XDF: telemetry, accelerometer and gyroscope are streams of the file, at the headset's rates")
    func xdfStreams() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("muse.xdf")
        let output = try record(out)
        #expect(output.contains("muse: accelerometer"), "\(output)")
        let file = try XDFReader.read(bytes: Array(try Data(contentsOf: out)))
        let byType = Dictionary(file.streams.map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })
        let eeg = try #require(byType["EEG"])
        for type in ["Accelerometer", "Gyroscope"] {
            let stream = try #require(byType[type], "\(type) is missing: \(file.streams.map(\.type))")
            #expect(stream.nominalRate == 52 && stream.channelCount == 3)
            // Four seconds of 52 Hz (whole 3-sample notifications), on the EEG's clock.
            #expect((150...260).contains(stream.sampleCount), "\(type): \(stream.sampleCount) samples")
            let rate = Double(stream.sampleCount - 1) / (stream.timestamps.last! - stream.timestamps.first!)
            #expect(abs(rate - 52) < 2, "\(type) at \(rate) Hz")
            #expect(abs(stream.timestamps[0] - eeg.timestamps[0]) < 1, "\(type) starts with the EEG")
        }
        let accelerometer = try #require(byType["Accelerometer"])
        #expect(abs(accelerometer.values[2] - 1) < 1e-3)  // (0, 0, 1) g
        let telemetry = try #require(byType["Telemetry"])
        #expect(telemetry.nominalRate == 0 && telemetry.sampleCount >= 3 && telemetry.values.first == 80)
    }

    @Test("BDF+: the motion streams in files of their own beside OUT, the battery annotated in the EEG file")
    func bdfFiles() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("muse.bdf")
        // A file where one would go is not overwritten without --force.
        let taken = folder.appendingPathComponent("muse.gyroscope.bdf")
        try Data("mine".utf8).write(to: taken)
        let axon = try #require(AxonExecutable.path)
        let script = LiveOutputTests.root.appendingPathComponent("scripts/bluez-mock/run.sh").path
        let (refused, message) = try AxonExecutable.run(
            script, [axon, "record", "muse:Muse-0040", "--out", out.path, "--seconds", "2"])
        #expect(refused == 1 && message.contains("muse.gyroscope.bdf"), "\(message)")
        #expect(try Data(contentsOf: taken) == Data("mine".utf8))

        _ = try record(out, extra: ["--force"])
        let eeg = try RecordingReader.read(path: out.path)
        #expect(eeg.markers.contains { $0.text == "battery: 80%" }, "\(eeg.markers.map(\.text))")
        for name in ["accelerometer", "gyroscope"] {
            let motion = try RecordingReader.read(path: folder.appendingPathComponent("muse.\(name).bdf").path)
            #expect(motion.sampleRate == 52 && motion.channelLabels == ["X", "Y", "Z"])
            #expect((150...260).contains(motion.frameCount), "\(name): \(motion.frameCount)")
            #expect(!motion.markers.contains { $0.text?.hasPrefix("gap") == true }, "\(motion.markers)")
            #expect(abs((motion.startTime ?? 0) - (eeg.startTime ?? 0)) < 1)
        }
    }
}
