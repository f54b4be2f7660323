import AxonDevices
import Testing

@Suite struct BluetoothUUIDTests {
    @Test func shortFormsExpandOnTheBaseUUID() {
        #expect(BluetoothUUID(parsing: "180F")?.string == "0000180f-0000-1000-8000-00805f9b34fb")
        #expect(BluetoothUUID(parsing: "0x2A19")?.string == "00002a19-0000-1000-8000-00805f9b34fb")
        #expect(BluetoothUUID(parsing: "0000180a")?.string == "0000180a-0000-1000-8000-00805f9b34fb")
        #expect(BluetoothUUID(parsing: "8B5E0001-4C5A-4E1B-9A3E-6A78B7E1A0C0")?.string == "8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0")
        #expect(BluetoothUUID.batteryLevel.shortValue == 0x2A19)
        #expect(BluetoothUUID.batteryLevel.description == "0x2A19")
    }

    @Test(arguments: ["", "18", "180g", "12345", "8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c", "8b5e00014c5a-4e1b-9a3e-6a78b7e1a0c0-"])
    func malformedUUIDsAreRejected(_ text: String) {
        #expect(BluetoothUUID(parsing: text) == nil)
    }
}
