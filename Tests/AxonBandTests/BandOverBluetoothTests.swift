import AxonBand
import AxonBluetooth
import AxonDevices
import AxonEventStore
import AxonRecording
import BlueZTestSupport
import Foundation
import Testing

/// The band adapter end to end over BlueZ's D-Bus API against the mock bluetoothd's `band` kind
/// (scripts/bluez-mock/kinds/band.py): the week synced exactly once through two link losses, settings byte-exact
/// at the device, live heart rate over 0x2A37.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct BandOverBluetoothTests {
    static let address = "C0:FF:EE:00:00:10"
    static let today = BandDate(year: 2026, month: 11, day: 22)!

    static func open(_ bed: BlueZTestBed, liveHeartRate: Bool = false) async throws -> (
        BluetoothCentral, BlueZTransport
    ) {
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: address, discovery: DiscoveryFilter(serviceUUIDs: [BandGATTProfile.serviceUUID]),
                connectTimeout: 5, openTimeout: 15))
        return (central, transport)
    }

    @Test func aWeekSyncsOnceThroughLinkLossesAndSettingsArriveByteExact() async throws {
        let bed = try BlueZTestBed(devices: [
            "band,\(Self.address),Smartee-0010,today=2026-11-22,loss_after=40+150,loss_seconds=0.5,hr_autosync=1"
        ])
        defer { bed.stop() }
        let path = bed.directory.appendingPathComponent("band.sqlite").path
        let store = try BandRecordStore(store: EventStore(path: path), device: Self.address, timeZone: .gmt)
        let (central, transport) = try await Self.open(bed)
        defer { central.close() }
        let session = BandSession(
            transport: transport, store: store,
            configuration: .init(idleTimeout: 20, today: { Self.today }, syncOnConnect: false))
        try await session.connect()
        let report = try await session.sync()
        let expected = 7 * (2 + 2 + 5 + 24) + 2 + 2 + 24
        #expect(report.totalInserted == expected)
        #expect(report.linkLosses == 2)
        #expect(report.inserted[.heartRate] == 7 * 24)
        #expect(report.deviceInfo == BandDeviceInfo(model: .smarteeTraining, firmware: "3.1.4", name: "Smartee-0010"))
        #expect(report.battery == 83)
        // The mock band's today's totals and sports list carry the same sport, count, names and units.
        #expect(report.todayTotals == SimulatedBand.todayTotals)
        #expect(report.supportedSports == SimulatedBand.supportedSports)
        #expect(try store.counts().values.reduce(0, +) == expected)
        var stats = try await bed.stats(Self.address)
        #expect(stats["pending"]?.integerValue == 0)
        #expect(stats["recordsMade"]?.integerValue == expected)

        // Nothing new the second time: only today's totals and the sports list, both already stored.
        let second = try await session.sync()
        #expect(second.totalInserted == 0)
        #expect(second.duplicates == BandSyncTests.askedEverySync)

        // Settings: validated here, then byte for byte at the device, and the band's answers arrive.
        let commands = BandCommandTransferTests.frames
        for (command, _) in commands { try await session.send(command) }
        let writes = try await bed.control(
            "GetWrites", [.string(Self.address), .string(BandGATTProfile.commandUUID.string)])
        guard case .array(_, let entries)? = writes.first else { Issue.record("no writes: \(writes)"); return }
        let settingFrames: [[UInt8]] = entries.compactMap {
            guard case .structure(let fields) = $0, case .bytes(let value)? = fields.first, value.first ?? 0 >= 0x40
            else { return nil }
            return value
        }
        #expect(settingFrames == commands.map(\.1))
        stats = try await bed.stats(Self.address)
        #expect(stats["rejected"]?.integerValue == 0)
        await session.close()
        // Reopened, the store still holds the week once.
        #expect(
            try BandRecordStore(store: EventStore(path: path), device: Self.address, timeZone: .gmt).counts().values
                .reduce(0, +) == expected)
    }

    @Test func liveHeartRateDecodesEveryFlagCombinationTheBandSends() async throws {
        let bed = try BlueZTestBed(devices: ["band,\(Self.address),Fit-0010,model=9615,hr_rate=25"])
        defer { bed.stop() }
        let (central, transport) = try await Self.open(bed)
        defer { central.close() }
        let session = BandSession(
            transport: transport, store: nil, configuration: .init(liveHeartRate: true, idleTimeout: 10))
        try await session.connect()
        var measurements: [HeartRateMeasurement] = []
        for await m in session.heartRate {
            measurements.append(m)
            if measurements.count == 24 { break }
        }
        let malformed = await session.malformedHeartRate
        await session.close()
        #expect(malformed == 0)
        // The band cycles through 16-bit or not, energy or not, RR or not: all 8 shapes arrive and decode.
        let shapes = Set(measurements.map { [$0.flags & 0x01, $0.flags & 0x08, $0.flags & 0x10] })
        #expect(shapes.count == 8)
        for m in measurements {
            #expect((64...103).contains(m.beatsPerMinute))
            #expect(m.sensorContact != .notSupported)
            if m.flags & 0x10 != 0 {
                #expect(m.rrIntervals == [Double(61_440 / m.beatsPerMinute) / 1024])
            } else {
                #expect(m.rrIntervals.isEmpty)
            }
            #expect((m.energyExpended != nil) == (m.flags & 0x08 != 0))
        }
    }
}
