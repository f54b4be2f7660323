import AxonBluetooth
import AxonDevices

extension BluetoothOptions {
    /// A transport that finds the device and keeps it connected through link losses, bluetoothd restarts and a
    /// restart of the bus daemon itself. The device must show up within `searchSeconds` (``DeviceSearch``): a
    /// `kind` that is not there is an error, not a silent run.
    static func transport(
        selector: String, bus: String?, service: BluetoothUUID, kind: String, searchSeconds: Double
    ) async throws -> BusRecoveringTransport {
        try await DeviceSearch.locate(kind: kind, selector: selector, bus: busAddress(bus), seconds: searchSeconds)
        return try await BusRecoveringTransport.open(
            bus: busAddress(bus), device: .init(device: selector, discovery: DiscoveryFilter(serviceUUIDs: [service])))
    }
}
