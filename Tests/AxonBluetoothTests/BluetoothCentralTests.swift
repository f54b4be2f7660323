import AxonBluetooth
import AxonDevices
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct BluetoothCentralTests {
    @Test func scanFindsTheHeadsetByServiceAndReportsNameAddressRSSI() async throws {
        let bed = try BlueZTestBed(devices: [
            "brainiac,\(BlueZTestBed.brainiacAddress),\(BlueZTestBed.brainiacName)",
            "heartrate,C0:FF:EE:00:00:02,Band-0002",
        ])
        defer { bed.stop() }
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        defer { central.close() }
        let brainiacService = BluetoothUUID(parsing: "8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0")!
        let found = try await central.scan(DiscoveryFilter(serviceUUIDs: [brainiacService]), seconds: 1)
        #expect(found.map(\.address) == [BlueZTestBed.brainiacAddress])
        #expect(found.first?.name == BlueZTestBed.brainiacName)
        #expect(found.first?.rssi != nil)
        #expect(found.first?.serviceUUIDs.contains(brainiacService) == true)
        let byPrefix = try await central.scan(DiscoveryFilter(namePrefix: "Band"), seconds: 0.5)
        #expect(byPrefix.map(\.name) == ["Band-0002"])
    }

    @Test func connectReadsBatteryAndDeviceInformation() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        defer { central.close() }
        _ = try await central.scan(seconds: 0.5)
        try await central.connect(BlueZTestBed.brainiacName, timeout: 5)
        let level = try await central.batteryLevel(of: BlueZTestBed.brainiacAddress)
        #expect((0...100).contains(level))
        let information = await central.deviceInformation(of: BlueZTestBed.brainiacAddress)
        #expect(information["model"] == "Brainiac")
        try await central.disconnect(BlueZTestBed.brainiacAddress)
    }

    @Test func unknownDeviceAndAbsentServiceAreTypedErrors() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        defer { central.close() }
        await #expect(throws: BluetoothError.unknownDevice("AA:BB:CC:DD:EE:FF")) {
            try await central.connect("AA:BB:CC:DD:EE:FF")
        }
        bed.killMock()
        // Once the bus has told the central that bluetoothd's name is gone, a scan is refused as such.
        let refused = try await waitUntil(seconds: 10, interval: 0.05, onTimeout: .returnFalse) {
            do {
                _ = try await central.scan(seconds: 0.1)
                return false
            } catch {
                return error as? BluetoothError == .serviceUnavailable
            }
        }
        #expect(refused)
    }
}
