import ArgumentParser
import AxonBluetooth
import AxonDevices

extension BluetoothOptions {
    /// The selector of a `KIND:NAME|ADDRESS` device argument, `nil` when the argument is another kind.
    static func selector(_ device: String, kind: String, example: String) throws -> String? {
        guard device.hasPrefix(kind + ":") else { return nil }
        let selector = String(device.dropFirst(kind.count + 1))
        guard !selector.isEmpty else {
            throw ValidationError("--device \(kind):NAME or \(kind):ADDRESS, e.g. \(kind):\(example)")
        }
        return selector
    }

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
