import AxonBluetooth
import AxonDevices
import AxonEventStore
import AxonRecording
import AxonStreams
import BlueZTestSupport
import Foundation
import Testing

@testable import AxonScales

/// A standard Weight Scale / Body Composition scale end to end over BlueZ's D-Bus API (the mock bluetoothd's
/// `wss` kind on a private bus): its stable weight arrives as a stream sample and as an event-store record.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct StandardScaleOverBluetoothTests {
    static let address = "C0:FF:EE:00:00:10"
    static let name = "Scale-0010"

    func session(bed: BlueZTestBed, store: ScaleRecordStore) async throws -> (BluetoothCentral, ScaleSession) {
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: Self.name, discovery: DiscoveryFilter(serviceUUIDs: [ScaleGATT.weightScaleService]),
                connectTimeout: 5, openTimeout: 15))
        return (central, ScaleSession(transport: transport, model: .standard, device: Self.name, recordStore: store))
    }

    @Test func stableWeightArrivesAsAStreamSampleAndAnEventStoreRecord() async throws {
        let bed = try BlueZTestBed(devices: ["wss,\(Self.address),\(Self.name),weight=77.6,fat=23.4"])
        defer { bed.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-wss-\(UUID().uuidString).sqlite")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let records = try ScaleRecordStore(store: try EventStore(path: path), device: Self.name, model: .standard)
        let (central, session) = try await session(bed: bed, store: records)
        defer { central.close() }

        let before = Int(Date().timeIntervalSince1970)
        try await session.connect()
        let measurement = try await session.measure(unit: .kg, seconds: 20)
        #expect(measurement.stableWeightKg == 77.6)
        #expect(measurement.displayed.text == "77.6 kg")
        let time = try #require(measurement.time)
        #expect(time >= before && time <= Int(Date().timeIntervalSince1970))
        // The two-packet Body Composition Measurement: fat 23.4 %, impedance 512.3 Ω.
        #expect(measurement.bodyComposition?.fatPercent == 23.4)
        #expect(measurement.bodyComposition?.impedanceOhm == 512.3)
        await session.close()

        // The stream: one stable-weight sample with the scale's time stamp, stored before it was reported.
        var stored: [(ScaleRecord, InsertOutcome)] = []
        var stable: [EventSample<Double>] = []
        for await event in session.events {
            switch event {
            case .stored(let record, let outcome): stored.append((record, outcome))
            case .stableWeight(let sample):
                #expect(stored.count == stable.count + 1, "stored before reported")
                stable.append(sample)
            case .error(let error): Issue.record("unexpected \(error)")
            default: break
            }
        }
        #expect(stable.map(\.payload) == [77.6])
        #expect(stable.first?.deviceTime == Double(time))
        #expect(stored.map(\.1) == [.inserted])
        #expect(try records.records() == [ScaleRecord(time: time, weightKg: 77.6)])
        let ids = try records.store.deviceRecordIDs(in: records.handle)
        #expect(ids == ["\(Self.name)/\(time)"])
        let stats = try await bed.stats(Self.address)
        #expect(stats["sent"]?.integerValue == 1)
    }
}
