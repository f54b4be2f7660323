/// A device a Bluetooth scan found: its address, advertised name and services, and signal strength.
///
/// Threading: a value type; share freely.
public struct DiscoveredDevice: Sendable, Hashable {
    /// The address the stack knows it by ("C0:FF:EE:00:00:0D").
    public var address: String
    /// The advertised name (or the stack's alias for it), when there is one.
    public var name: String?
    /// The service UUIDs it advertises.
    public var serviceUUIDs: [BluetoothUUID]
    /// Received signal strength in dBm, when the stack reports one.
    public var rssi: Int?

    /// Creates a description of a found device.
    public init(address: String, name: String?, serviceUUIDs: [BluetoothUUID], rssi: Int?) {
        self.address = address
        self.name = name
        self.serviceUUIDs = serviceUUIDs
        self.rssi = rssi
    }
}

/// Finds devices by the services they advertise, for adapters that look for their own devices (the OBD gateway's
/// Bluetooth LE dongles, by their serial-over-GATT services). Like ``DeviceTransportFactory``, the adapter depends on
/// this protocol only; `AxonBluetooth.BlueZTransportFactory` implements both for BlueZ.
///
/// Threading contract: `Sendable`; ``discover(services:bus:seconds:)`` from any thread but Swift's cooperative pool:
/// it blocks for the scan.
public protocol DeviceDiscovery: Sendable {
    /// Scans for `seconds` and returns the devices that advertise at least one of `services`, strongest first.
    ///
    /// - Parameters:
    ///   - services: the services to look for; empty: every device.
    ///   - bus: where the stack is reached (for BlueZ a D-Bus address); `nil`: the system's.
    ///   - seconds: how long to scan.
    /// - Throws: ``TransportError`` when the stack cannot be reached or refuses to scan.
    func discover(services: [BluetoothUUID], bus: String?, seconds: Double) throws(TransportError)
        -> [DiscoveredDevice]
}
