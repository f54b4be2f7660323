import AxonConnect
import AxonDevices
import AxonRecording
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// `axon record polar:NAME --out ecg.edf --seconds 60` against the mock bluetoothd's H10 streaming the real ECG:
/// the EDF+ holds the recording sample for sample, the accelerometer and RR intervals are written beside it.
@Suite(
    .enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized
)
struct PolarRecordCommandTests {
    @Test("60 s of ECG to EDF+: every sample within 1 µV, a lost frame annotated and filled, ACC EDF and RR CSV beside")
    func recordEDF() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-polar-record-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The strap's clock at 4×: 60 s of ECG in 15 s; ECG frame 30 is lost on the radio.
        let bed = try BlueZTestBed(devices: [PolarOverBluetoothTests.device(",speed=4,drop=30")])
        defer { bed.stop() }
        let out = folder.appendingPathComponent("ecg.edf")
        let (status, output) = try await AxonExecutable.runOffPool(
            axon,
            [
                "record", "polar:\(PolarOverBluetoothTests.name)", "--out", out.path, "--seconds", "60", "--bus",
                bed.address,
            ])
        print(output)
        #expect(status == 0, "\(output)")
        #expect(output.contains("polar: accelerometer"), "\(output)")

        let ecg = try PolarOverBluetoothTests.ecg()
        let file = try EDFFileReader(keepsCompleteRecords: false).read(path: out.path)
        #expect(file.channelLabels == ["ECG"] && file.sampleRate == 130)
        let gaps = file.markers.compactMap(\.text).filter { $0.hasPrefix("gap:") }
        #expect(gaps == ["gap: 73 samples (deviceCounter)"], "\(file.markers.compactMap(\.text))")
        // 60 s were asked for: at least 7800 samples arrived, and the file has them plus the 73 filled.
        let written = min(file.frameCount, 60 * 130 + 73)
        #expect(file.frameCount >= 60 * 130)
        var worst = 0.0
        var compared = 0
        for frame in 0..<written where !(30 * 73..<31 * 73).contains(frame) {
            worst = max(worst, abs(file.value(frame: frame, channel: 0) - ecg[frame % ecg.count]))
            compared += 1
        }
        print("axon record polar: \(compared) samples compared with the recording, worst difference \(worst) µV")
        #expect(compared >= 60 * 130 - 73)
        #expect(worst <= 1)

        let accelerometer = try RecordingReader.read(path: folder.appendingPathComponent("ecg.accelerometer.edf").path)
        #expect(accelerometer.sampleRate == 200 && accelerometer.channelLabels == ["X", "Y", "Z"])
        // 15 s of wall time at the strap's 4× clock: about 60 s of 200 Hz samples, the first (0, 0, 1000) mG.
        #expect(accelerometer.frameCount >= 50 * 200, "\(accelerometer.frameCount) accelerometer samples")
        // (±8000 mG in 16 bits: 0.244 mG steps.)
        #expect(abs(accelerometer.value(frame: 0, channel: 2) - 1000) < 0.25)
        #expect(abs(accelerometer.value(frame: 1, channel: 1) + 1) < 0.25)

        let lines = try String(contentsOf: folder.appendingPathComponent("ecg.rr.csv"), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.first == "unix_time,rr_ms,bpm")
        let rr = try lines.dropFirst().map { try #require(Double($0.split(separator: ",")[1])) }
        let expected = try PolarOverBluetoothTests.rr().map { ($0 * 1.024).rounded() / 1.024 }
        print("axon record polar: \(rr.count) RR intervals in the CSV")
        #expect(rr.count >= 60)
        #expect(zip(rr, expected).allSatisfy { abs($0 - $1) < 0.001 }, "\(rr.prefix(5)) vs \(expected.prefix(5))")
    }

    @Test("XDF: ECG, accelerometer, heart rate and RR intervals are streams of one file")
    func recordXDF() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-polar-xdf-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bed = try BlueZTestBed(devices: [PolarOverBluetoothTests.device(",speed=4")])
        defer { bed.stop() }
        let out = folder.appendingPathComponent("h10.xdf")
        let (status, output) = try await AxonExecutable.runOffPool(
            axon,
            [
                "record", "polar:\(PolarOverBluetoothTests.name)", "--out", out.path, "--seconds", "20", "--bus",
                bed.address,
            ])
        #expect(status == 0, "\(output)")
        let file = try XDFReader.read(bytes: Array(try Data(contentsOf: out)))
        let byType = Dictionary(file.streams.map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })
        let ecg = try #require(byType["ECG"], "\(file.streams.map(\.type))")
        #expect(ecg.nominalRate == 130 && ecg.channelCount == 1 && ecg.sampleCount >= 20 * 130)
        let recording = try PolarOverBluetoothTests.ecg()
        #expect(ecg.values.prefix(20 * 130).enumerated().allSatisfy { abs($1 - recording[$0]) <= 1 })
        let accelerometer = try #require(byType["Accelerometer"])
        #expect(
            accelerometer.nominalRate == 200 && accelerometer.channelCount == 3 && accelerometer.sampleCount >= 15 * 200
        )
        let rr = try #require(byType["RRInterval"])
        #expect(rr.nominalRate == 0 && rr.channelCount == 1 && rr.sampleCount >= 20)
        let expected = try PolarOverBluetoothTests.rr().map { ($0 * 1.024).rounded() / 1.024 }
        #expect(zip(rr.values, expected).allSatisfy { abs($0 - $1) < 0.001 })
        let heartRate = try #require(byType["HeartRate"])
        #expect(heartRate.nominalRate == 0 && heartRate.sampleCount >= 4)
        // RR intervals on the ECG's clock: the beats fall inside the recording.
        #expect(rr.timestamps.first! > ecg.timestamps.first! - 2 && rr.timestamps.last! < ecg.timestamps.last! + 2)
    }

    @Test("polar:NAME parses as a device SOURCE and prints back")
    func sourceSpecifier() throws {
        let specifier = try SourceSpecifier(parsing: "polar:Polar H10 0A3B5C7D")
        #expect(specifier == .polar(selector: "Polar H10 0A3B5C7D"))
        #expect(specifier.isDevice && specifier.description == "polar:Polar H10 0A3B5C7D")
        #expect(throws: SourceSpecifierError.missingValue(kind: "polar")) { try SourceSpecifier(parsing: "polar:") }
        #expect(SourceSpecifier.forms.contains("polar:NAME|ADDRESS"))
    }

    @Test("axon scan names a Polar strap by its name or Polar's 0xFEEE; a plain heart-rate strap stays one")
    func kindName() {
        #expect(DeviceKindName.name(name: "Polar H10 0A3B5C7D", services: ["180d", "feee"]) == "Polar H10")
        #expect(DeviceKindName.name(name: "Polar OH1 1234", services: ["180d", "feee"]) == "Polar sensor")
        #expect(DeviceKindName.name(name: "Heartband-0002", services: ["180d", "180f"]) == "heart-rate sensor")
    }

    @Test("LiveEEGDevice opens polar:NAME through BlueZ: the ECG stream, a title and a summary of its counts")
    func liveDevice() async throws {
        let bed = try BlueZTestBed(devices: [PolarOverBluetoothTests.device(",speed=4")])
        defer { bed.stop() }
        let device = try await LiveEEGDevice.open(
            .polar(selector: PolarOverBluetoothTests.address),
            options: .init(bus: .address(bed.address), searchSeconds: 10))
        defer { device.close() }
        #expect(device.source.descriptor.channels.map(\.label) == ["ECG"])
        #expect(device.source.descriptor.nominalRate == 130)
        #expect(device.title.hasPrefix("Polar H10 \(PolarOverBluetoothTests.address) through BlueZ"))
        #expect(device.summary().contains("0 ECG frames"), "\(device.summary())")
    }
}
