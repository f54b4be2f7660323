import AxonRecording
import AxonSensors
import Foundation
import StreamTestSupport
import Testing

/// `axon sensor check` and `axon record --sensor`, run as a user runs them: the Arduino simulator's pty and Mind
/// Monitor's OSC stream replayed by python-osc.
@Suite(.serialized)
struct SensorCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let peersPython = root.appendingPathComponent(".venv-peers/bin/python").path
    static var axon: String? { AxonExecutable.path }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("axon-sensor-\(UUID().uuidString)-\(name)").path
    }

    /// `example` with its transport replaced by `transport` (JSON), written to a temporary file.
    static func example(_ example: String, transport: String) throws -> String {
        let url = root.appendingPathComponent("examples/sensors/\(example)")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        json["transport"] = try JSONSerialization.jsonObject(with: Data(transport.utf8))
        let path = temporary(example)
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("sensor check: a valid file's summary and a capture's samples; a malformed file names the field and exits 1",
        .enabled(if: axon != nil))
    func check() throws {
        let capture = Self.temporary("capture.txt")
        try "65535,512,600,400\n0,513,601,x\n".write(toFile: capture, atomically: true, encoding: .utf8)
        let valid = try AxonExecutable.run(
            Self.axon!, ["sensor", "check", "examples/sensors/arduino-csv.json", "--from-text", capture], in: Self.root)
        #expect(valid.status == 0, "\(valid.output)")
        #expect(valid.output.contains("channel A0 = a0 × 0.5 − 256 µV"), "\(valid.output)")
        #expect(valid.output.contains("counter 65535: A0 0 µV, A1 44 µV, A2 -56 µV"), "\(valid.output)")
        #expect(valid.output.contains("packet 2 (11-character line): rejected: field \"a2\" is not a number"), "\(valid.output)")
        let polar = try AxonExecutable.run(
            Self.axon!, ["sensor", "check", "examples/sensors/polar-h10-ecg.json",
                         "--from-hex", "00 00 10 A5 D4 E8 00 00 00 00 FF FF FF 10 00 00"], in: Self.root)
        #expect(polar.status == 0 && polar.output.contains("device time 1000.000000 s: ECG 16 µV"), "\(polar.output)")
        let malformed = try AxonExecutable.run(
            Self.axon!, ["sensor", "check", "Tests/AxonSensorsTests/Malformed/width-zero.json"], in: Self.root)
        #expect(malformed.status == 1, "\(malformed.output)")
        #expect(malformed.output.contains("layout.binary.samples.fields[0].bits: a field is at least 1 bit wide"), "\(malformed.output)")
    }

    @Test("record --sensor: the Arduino pty at 500 Hz into EDF+, values as sent, the pty's dropped lines gap records",
        .enabled(if: axon != nil))
    func recordArduino() throws {
        let link = Self.temporary("tty")
        let description = try Self.example("arduino-csv.json", transport: """
            {"serial": {"path": "\(link)", "baud": 115200, "framing": "lines"}}
            """)
        let simulator = Process()
        simulator.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        simulator.arguments = [
            Self.root.appendingPathComponent("scripts/arduino-sim.py").path, "--link", link, "--seconds", "7",
            "--start", "65300", "--drop", "600-609,1500",
        ]
        let pipe = Pipe()
        simulator.standardOutput = pipe
        try simulator.run()
        defer { if simulator.isRunning { simulator.terminate() } }
        _ = pipe.fileHandleForReading.availableData
        let out = Self.temporary("arduino.edf")
        let result = try AxonExecutable.run(
            Self.axon!, ["record", "--sensor", description, "--out", out, "--seconds", "4"], in: Self.root)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("axon record: Arduino EEG, 3 channels at 500 Hz"), "\(result.output)")
        #expect(result.output.contains("sensor: ") && result.output.contains("0 rejected"), "\(result.output)")
        #expect(result.output.contains("done: 2000 samples (4.00 s)"), "exactly --seconds of samples: \(result.output)")
        let recording = try RecordingReader.read(path: out)
        #expect(recording.channelLabels == ["A0", "A1", "A2"] && recording.sampleRate == 500)
        #expect(recording.frameCount >= 2_000 + 11, "2,000 samples and the 11 missing (then the last record's padding)")
        let gaps = recording.markers.compactMap(\.text).filter { $0.hasPrefix("gap: ") }
        #expect(gaps == ["gap: 10 samples (deviceCounter)", "gap: 1 samples (deviceCounter)"], "\(recording.markers)")
        #expect(recording.descriptor.channels.allSatisfy { $0.unit == "uV" }, "EDF writes µV as uV")
    }

    @Test("record --sensor: Mind Monitor over OSC (python-osc replaying the app's CSV) stores the RAW EEG equal to the CSV's",
        .enabled(if: axon != nil && FileManager.default.isExecutableFile(atPath: peersPython)))
    func recordMindMonitor() async throws {
        let csv = Self.root.appendingPathComponent("datasets/muse-p300/mindMonitor-2017-format-first4s.csv").path
        let expected = try MindMonitorCSVReader().read(
            bytes: Array(FileManager.default.contents(atPath: csv)!), sourceName: "mind monitor").eeg!
        // A free port: bound by a throwaway source, then released for axon.
        let port = try OSCSampleSource(mapping: .mindMonitorEEG, port: 0).port
        let description = try Self.example("mind-monitor-osc.json", transport: """
            {"osc": {"port": \(port), "address": "/muse/eeg"}}
            """)
        let out = Self.temporary("mind-monitor.csv")
        let rows = expected.frameCount
        let seconds = Double(rows) / 256
        let sender = Self.root.appendingPathComponent("scripts/osc-sender.py").path
        let python = Self.peersPython
        let result = try await AxonExecutable.runOffPool(
            Self.axon!, ["record", "--sensor", description, "--out", out, "--seconds", "\(seconds)"]
        ) { exited in
            // axon owns the port once a throwaway source can no longer bind it.
            var bound = false
            for _ in 0..<200 where !bound {
                bound = (try? OSCSampleSource(mapping: .mindMonitorEEG, port: port)) == nil
                if !bound { _ = exited(0.05) }
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [sender, csv, String(port), "--rate", "512"]
            process.standardOutput = FileHandle.nullDevice
            try? process.run()
            process.waitUntilExit()
            _ = exited(20)
        }
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 datagrams not OSC") && result.output.contains("1 messages to other addresses"),
            "\(result.output)")
        let recording = try RecordingReader.read(path: out)
        #expect(recording.frameCount == rows, "\(result.output)")
        var worst = 0.0
        for frame in 0..<min(rows, recording.frameCount) {
            for channel in 0..<4 {
                worst = max(worst, abs(recording.value(frame: frame, channel: channel) - Double(Float(expected.value(frame: frame, channel: channel)))))
            }
        }
        #expect(worst < 1e-9, "every RAW value as the app sent it (float32); worst difference \(worst) µV")
    }
}
