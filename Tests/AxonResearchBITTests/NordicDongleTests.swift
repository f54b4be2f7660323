import AxonDevices
import AxonEventStore
import AxonRecording
import AxonResearchBIT
import Foundation
import Testing

/// The Nordic dongle's battery, LED, name and button (the seed's four characteristics), against the simulated
/// dongle: only the watched ones are read or notified, values are checked, and the dongle still gives its summary
/// data on the same link's service.
struct NordicDongleTests {
    static func dongle() -> SimulatedResearchBIT {
        SimulatedResearchBIT(
            configuration: .init(name: "Nordic-0021", address: "C0:FF:EE:00:00:21", battery: 64, nordicDongle: true))
    }

    @Test func theLEDAndTheButtonAreWatchedAndNothingElse() async throws {
        let device = Self.dongle()
        let dongle = NordicDongleClient(transport: device, watching: [.led, .button])
        try await dongle.open()
        #expect(try await dongle.ledIsOn() == false)
        try await dongle.setLED(true)
        #expect(device.isLEDOn)
        #expect(try await dongle.ledIsOn() == true)

        var changes = dongle.changes.makeAsyncIterator()
        device.setButton(pressed: true)
        #expect(await changes.next() == .button(pressed: true))
        #expect(try await dongle.buttonIsPressed() == true)
        device.setBattery(40)  // not watched: not subscribed, so not notified
        device.setButton(pressed: false)
        #expect(await changes.next() == .button(pressed: false))

        await #expect(throws: NordicDongleError.notWatched(.battery)) { try await dongle.battery() }
        await #expect(throws: NordicDongleError.notWatched(.name)) { try await dongle.name() }
        await dongle.close()
    }

    @Test func everyCharacteristicWhenAllAreWatched() async throws {
        let device = Self.dongle()
        let dongle = NordicDongleClient(transport: device, watching: Set(NordicDongleCharacteristic.allCases))
        try await dongle.open()
        #expect(try await dongle.battery() == 64)
        #expect(try await dongle.name() == "Nordic-0021")
        #expect(try await dongle.buttonIsPressed() == false)
        var changes = dongle.changes.makeAsyncIterator()
        device.setBattery(63)
        #expect(await changes.next() == .battery(63))
        #expect(try await dongle.battery() == 63)
        await dongle.close()

        // The same device still hands over its summary data through the dongle's service.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-nordic-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try ResearchBITStore(store: EventStore(path: path))
        let client = ResearchBITClient(
            transport: device, store: store, address: device.configuration.address, profile: device.profile)
        let result = try await client.fetch()
        #expect(result.inserted == SimulatedResearchBIT.events(device.configuration).count)
        #expect(result.battery == 63)
    }

    @Test func aResearchBITSensorHasNoDongleCharacteristics() async throws {
        let sensor = SimulatedResearchBIT()
        let dongle = NordicDongleClient(transport: sensor, watching: [.button])
        await #expect(throws: NordicDongleError.transport(.characteristicMissing(NordicDongleCharacteristic.button.id))) {
            try await dongle.open()
        }
    }

    @Test(arguments: [
        (NordicDongleCharacteristic.battery, [UInt8]([101])), (.battery, []), (.led, [2]), (.led, [1, 0]),
        (.button, []), (.button, [7]), (.name, []), (.name, [0xC3, 0x28]), (.name, [UInt8](repeating: 0x41, count: 21)),
    ])
    func invalidValuesAreTypedErrors(_ characteristic: NordicDongleCharacteristic, _ bytes: [UInt8]) {
        #expect(throws: NordicDongleError.invalidValue(characteristic, bytes)) {
            try NordicDongleValue(decoding: bytes, of: characteristic)
        }
    }

    @Test func theLEDRefusesAnythingButZeroOrOne() async throws {
        let device = Self.dongle()
        try await device.open(notifications: [], receiver: Sink())
        await #expect(throws: TransportError.self) {
            try await device.write([2], to: NordicDongleCharacteristic.led.id, withResponse: true)
        }
        #expect(!device.isLEDOn)
        await device.close()
    }

    private final class Sink: TransportReceiver, Sendable {
        func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {}
        func transport(didChange event: LinkEvent) {}
    }
}
