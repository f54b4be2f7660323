import AxonConnect
import AxonDevices
import AxonSensors
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// A BLE sensor described by a file (`examples/sensors/polar-h10-ecg.json`) against the mock bluetoothd's Polar H10,
/// which streams a real ECG (`datasets/mitdb-208-ecg`) as Polar Measurement Data frames: found through BlueZ,
/// started by the file's command, decoded by its layout, the strap's clock turning lost frames into gap records.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct DescribedSensorOverBluetoothTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let address = "C0:FF:EE:00:00:51"
    static let name = "Polar H10 0A3B5C7E"
    static let dataset = root.appendingPathComponent("datasets/mitdb-208-ecg")

    @Test("the Polar H10's ECG described by a file: every sample the recording's, the three lost frames gaps of 73 and 146 as the built-in adapter reports them")
    func polarECGFromTheExampleFile() async throws {
        let ecg = try String(contentsOf: Self.dataset.appendingPathComponent("ecg-130hz-uv.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { Double($0)! }
        let bed = try BlueZTestBed(devices: [
            "polar,\(Self.address),\(Self.name),csv=\(Self.dataset.appendingPathComponent("ecg-130hz-uv.csv").path),"
                + "rr=\(Self.dataset.appendingPathComponent("rr.csv").path),speed=4,drop=10+20-21"
        ])
        defer { bed.stop() }
        // The example as shipped, but for the strap's name.
        let example = Self.root.appendingPathComponent("examples/sensors/polar-h10-ecg.json")
        let text = try String(contentsOf: example, encoding: .utf8).replacingOccurrences(
            of: "\"device\": \"Polar H10 8C4E1F2A\"", with: "\"device\": \"\(Self.name)\"")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-polar-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let device = try await LiveEEGDevice.open(
            .sensor(description: path), options: .init(bus: .address(bed.address), searchSeconds: 10))
        #expect(device.source.descriptor.channels.map(\.label) == ["ECG"] && device.source.descriptor.nominalRate == 130)
        let sink = CollectingSink()
        let pipeline = StreamPipeline(
            source: device.source, sinks: [sink], configuration: .init(ringCapacity: 16_384, timeline: device.timeline))
        try pipeline.start()
        waitUntil(seconds: 30) { sink.snapshot.values.count >= 2_200 }
        pipeline.stop()
        device.close()

        let got = sink.snapshot
        let lost = Set((10 * 73..<11 * 73).map { $0 } + (20 * 73..<22 * 73).map { $0 })
        let expected = (0..<(got.values.count + lost.count)).filter { !lost.contains($0) }
        var worst = 0.0
        for (frame, sample) in zip(got.values, expected) { worst = max(worst, abs(frame[0] - ecg[sample % ecg.count])) }
        print("described Polar ECG: \(got.values.count) samples compared, worst difference \(worst) µV")
        #expect(got.values.count >= 2_200)
        #expect(worst == 0)
        #expect(got.gaps.map(\.missingCount) == [73, 146], "\(got.gaps)")
        #expect(got.gaps.allSatisfy { $0.cause == .deviceCounter })
        #expect(got.gapPositions == [10 * 73, 19 * 73])
        let commands = try await bed.stats(Self.address)["commands"]?.stringValue ?? ""
        #expect(commands.hasPrefix("02000001820001010e00"), "the file's start command, byte for byte: \(commands)")
        let statistics = try #require(device.source as? DescribedSensorSource).statistics
        #expect(statistics.rejected == 0 && statistics.samples == got.values.count)
    }
}
