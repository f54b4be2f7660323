import AxonBluetooth
import AxonDevices
import AxonEventStore
import AxonRecording
import BlueZTestSupport
import Foundation
import Testing

@testable import AxonScales

/// The simulated iHealth models of the mock bluetoothd (`hs3`, `hs5` kinds, Axon's framing) through BlueZ's D-Bus
/// API: a 200-record memory transfer that survives a link loss, and the HS5 user rules.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct IHealthScaleOverBluetoothTests {
    static let address = "C0:FF:EE:00:00:20"

    func open(_ bed: BlueZTestBed, model: ScaleModel, name: String) async throws -> (BluetoothCentral, ScaleSession) {
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: name, discovery: DiscoveryFilter(serviceUUIDs: [ScaleGATT.service]), connectTimeout: 5,
                openTimeout: 15))
        return (central, ScaleSession(transport: transport, model: model, device: name, reconnectTimeout: 20))
    }

    @Test func memoryTransferResumesAfterALinkLossWithoutLossOrDuplicates() async throws {
        let bed = try BlueZTestBed(devices: ["hs3,\(Self.address),HS3-0020,records=200,link_loss_after=77,outage=1"])
        defer { bed.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-hs3-\(UUID().uuidString).sqlite")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let records = try ScaleRecordStore(store: try EventStore(path: path), device: "HS3-0020", model: .hs3)
        let (central, session) = try await open(bed, model: .hs3, name: "HS3-0020")
        defer { central.close() }
        try await session.connect()
        #expect(session.firmware == FirmwareVersion(1, 0, 2))
        try await session.validate(ana)

        let log = TransferLog()
        let summary = try await session.transferMemory(into: records, report: log.append)
        #expect(summary.count == 200 && summary.inserted == 200 && summary.duplicates == 0)
        #expect(summary.resumptions == 1)
        #expect(log.recordIndices == Array(0..<200), "every record reported once, in order")
        let progress = log.progress
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 < $1 } && progress.last == 1.0)
        #expect(try records.records() == SimulatedScale.Configuration.records(200, model: .hs3))
        let stats = try await bed.stats(Self.address)
        var requests: [Int] = []
        if case .array(_, let items)? = stats["memoryRequests"]?.unwrapped {
            requests = items.compactMap(\.integerValue)
        }
        #expect(requests == [0, 77], "asked again from the first record not stored")

        // Repeating it stores none new.
        let again = try await session.transferMemory(into: records)
        #expect(again.inserted == 0 && again.duplicates == 200)
        #expect(try records.count() == 200)
        await session.close()
    }

    @Test func hs5UserRulesAndMeasurement() async throws {
        let bed = try BlueZTestBed(devices: ["hs5,\(Self.address),HS5-0020,weight=68.3,records=3"])
        defer { bed.stop() }
        let (central, session) = try await open(bed, model: .hs5, name: "HS5-0020")
        defer { central.close() }
        try await session.connect()
        try await session.validate(ana)
        let serial = try #require(session.currentUserSerialNumber)
        func user(_ serial: UInt32) -> HS5User {
            HS5User(
                serialNumber: serial, birthYear: 1990, birthMonth: 1, birthDay: 1, heightCM: 170, isAthlete: false,
                sex: .female)
        }
        try await session.createUser(user(serial), position: 0)
        for position in 1..<20 { try await session.createUser(user(UInt32(position)), position: position) }
        #expect(await scaleError { try await session.createUser(user(99), position: 4) } == .userRule(.full))
        try await session.deleteUser(serialNumber: 4)
        #expect(
            await scaleError { try await session.createUser(user(99), position: 5) } == .userRule(.positionOccupied(5)))
        #expect(await scaleError { try await session.modifyUser(user(4)) } == .userRule(.unknownUser(4)))
        // The seed: a new user only into a position that has never been occupied; position 4 held user 4.
        #expect(
            await scaleError { try await session.createUser(user(99), position: 4) }
                == .userRule(.positionUsedBefore(4)))
        #expect(try await session.users().count == 19)

        let m = try await session.measure(unit: .kg)
        #expect(m.stableWeightKg == 68.3 && m.impedanceWeightKg == 68.3)
        #expect(m.bodyComposition?.fatPercent == 21.5 && m.bodyComposition?.visceralFatLevel == 6)
        await session.close()
    }

    @Test func anInjectedErrorCodeArrivesAsTheSeedsError() async throws {
        let bed = try BlueZTestBed(devices: ["hs4,\(Self.address),HS4-0020,error=6,weight=80"])
        defer { bed.stop() }
        let (central, session) = try await open(bed, model: .hs4, name: "HS4-0020")
        defer { central.close() }
        try await session.connect()
        try await session.validate(ScaleUserCredentials(userID: "ana@example.org"))
        #expect(await scaleError { _ = try await session.measure(unit: .kg) } == .device(.hs4(.movement)))
        // The next measurement succeeds: three unstable weights, then the stable one.
        let m = try await session.measure(unit: .kg)
        #expect(m.unstableWeightsKg == [48, 72, 78.4] && m.stableWeightKg == 80)
        await session.close()
    }
}
