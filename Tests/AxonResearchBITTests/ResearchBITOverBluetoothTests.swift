import AxonBluetooth
import AxonDevices
import AxonEventStore
import AxonRecording
import AxonResearchBIT
import BlueZTestSupport
import Foundation
import Testing

/// ResearchBIT end to end over BlueZ's D-Bus API against the mock bluetoothd (scripts/bluez-mock/kinds/band.py):
/// the scan keeps only ResearchBIT and Nordic devices, a fetch by the identity a scan stored needs no scan, and a
/// fetch cut short by the device leaving range resumes without duplicates.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct ResearchBITOverBluetoothTests {
    static let sensor = "C0:FF:EE:00:00:20"
    static let dongle = "C0:FF:EE:00:00:21"

    static func transport(_ central: BluetoothCentral, _ address: String) -> BlueZTransport {
        BlueZTransport(
            central: central,
            configuration: .init(
                device: address, discovery: DiscoveryFilter(serviceUUIDs: ResearchBITProfile.serviceUUIDs),
                connectTimeout: 5, openTimeout: 15))
    }

    @Test func scanFiltersThenAFetchByStoredIdentityNeedsNoScan() async throws {
        let bed = try BlueZTestBed(devices: [
            "researchbit,\(Self.sensor),ResearchBIT-0020,battery=91",
            "researchbit,\(Self.dongle),Nordic-0021,family=nordic,battery=40,sessions=3",
            "nordicother,C0:FF:EE:00:00:22,ResearchBIT-9999",
            "heartrate,C0:FF:EE:00:00:23,Heartband-0023",
        ])
        defer { bed.stop() }
        let path = bed.directory.appendingPathComponent("rb.sqlite").path
        let store = try ResearchBITStore(store: EventStore(path: path))

        // Scan everything in range and keep what the adapter accepts.
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        let seen = try await central.scan(DiscoveryFilter(), seconds: 1.5)
        #expect(seen.count == 4)
        let found = seen.compactMap {
            ResearchBITDevice(
                name: $0.name, address: $0.address, serviceUUIDs: $0.serviceUUIDs,
                manufacturerData: $0.manufacturerData, rssi: $0.rssi)
        }.sorted { $0.address < $1.address }
        #expect(found.map(\.name) == ["ResearchBIT-0020", "Nordic-0021"])
        #expect(found.map(\.kind) == [.researchBIT, .nordicDongle])
        #expect(found.map(\.batteryPercentage) == [91, 40])
        #expect(found.allSatisfy { $0.dataIsAvailable })
        for device in found { try store.remember(device) }
        central.close()

        // Later, another process: the identity from the store, straight to the device.
        let later = try ResearchBITStore(store: EventStore(path: path))
        let known = try #require(try later.knownDevice("ResearchBIT-0020"))
        let central2 = try await BluetoothCentral.open(bus: .address(bed.address))
        defer { central2.close() }
        let knownToBlueZ = await central2.knownDevices().contains { $0.address == known.address }
        #expect(knownToBlueZ, "BlueZ knows it: no discovery")
        let result = try await ResearchBITClient(
            transport: Self.transport(central2, known.address), store: later, address: known.address,
            profile: known.profile,
            idleTimeout: 10
        ).fetch()
        #expect(result.inserted == 24)
        #expect(result.battery == 91)
        #expect(result.sessions.count == 12)
        #expect(result.unpaired.isEmpty)
        #expect(try await bed.stats(known.address)["pending"]?.integerValue == 0)
        // The Nordic dongle, also by its stored identity (its own service).
        let dongle = try #require(try later.knownDevice(Self.dongle))
        let fromDongle = try await ResearchBITClient(
            transport: Self.transport(central2, dongle.address), store: later, address: dongle.address,
            profile: dongle.profile,
            idleTimeout: 10
        ).fetch()
        #expect(fromDongle.sessions.count == 3)
    }

    @Test func aFetchCutShortResumesWithoutDuplicates() async throws {
        let bed = try BlueZTestBed(devices: ["researchbit,\(Self.sensor),ResearchBIT-0020,vanish_after=9"])
        defer { bed.stop() }
        let store = try ResearchBITStore(
            store: EventStore(path: bed.directory.appendingPathComponent("rb.sqlite").path))
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        defer { central.close() }
        await #expect(throws: ResearchBITError.timedOut(seconds: 2)) {
            try await ResearchBITClient(
                transport: Self.transport(central, Self.sensor), store: store, address: Self.sensor, idleTimeout: 2
            ).fetch()
        }
        #expect(try store.storedEvents(of: Self.sensor).count == 9)
        try await bed.control("SetInRange", [.string(Self.sensor), .boolean(true)])
        let resumed = try await ResearchBITClient(
            transport: Self.transport(central, Self.sensor), store: store, address: Self.sensor, idleTimeout: 10
        ).fetch()
        #expect(resumed.inserted == 15)
        let all = try store.storedEvents(of: Self.sensor)
        #expect(all.count == 24)
        #expect(Set(all.map(\.id)).count == 24)
        #expect(resumed.sessions.count == 12)
    }

    @Test func theNordicDonglesLEDAndButtonThroughBlueZ() async throws {
        let bed = try BlueZTestBed(devices: ["researchbit,\(Self.dongle),Nordic-0021,family=nordic,battery=40"])
        defer { bed.stop() }
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        defer { central.close() }
        let dongle = NordicDongleClient(transport: Self.transport(central, Self.dongle), watching: [.led, .button])
        try await dongle.open()
        #expect(try await dongle.ledIsOn() == false)
        try await dongle.setLED(true)
        #expect(try await dongle.ledIsOn() == true)
        let writes = try await bed.control(
            "GetWrites", [.string(Self.dongle), .string(NordicDongleCharacteristic.led.uuid.string)])
        guard case .array(_, let entries)? = writes.first, case .structure(let fields)? = entries.first,
            case .bytes(let value)? = fields.first
        else {
            Issue.record("no LED write at the dongle: \(writes)")
            return
        }
        #expect(value == [1] && entries.count == 1)

        var changes = dongle.changes.makeAsyncIterator()
        let sent = try await bed.control(
            "SendRaw", [.string(Self.dongle), .string(NordicDongleCharacteristic.button.uuid.string), .bytes([1])])
        #expect(sent.first == .boolean(true), "the button is subscribed")
        #expect(await changes.next() == .button(pressed: true))
        #expect(try await dongle.buttonIsPressed() == true)
        await #expect(throws: NordicDongleError.notWatched(.battery)) { try await dongle.battery() }
        await dongle.close()
    }
}
