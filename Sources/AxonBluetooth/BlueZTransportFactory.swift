import AxonDevices

/// Transports through BlueZ for adapters that open their own links (``AxonDevices/DeviceTransportFactory``), and
/// discovery by advertised services for adapters that look for their own devices (``AxonDevices/DeviceDiscovery``,
/// the OBD gateway's Bluetooth LE scan): each
/// ``makeTransport(device:bus:discovering:connectTimeout:openTimeout:)`` opens a bus connection of its own and
/// returns a ``BlueZTransport`` that owns it, so closing the transport closes the connection. The command line gives
/// one to the OBD gateway for `--ble` dongles.
///
///     let gateway = OBDGateway(validator: validator, bluetooth: BlueZTransportFactory())
///
/// Threading contract: `Sendable`, stateless; call it from any thread. It blocks while the bus connection opens and
/// BlueZ's objects load (on the connection's own owner thread, not Swift's cooperative pool).
public struct BlueZTransportFactory: DeviceTransportFactory, DeviceDiscovery {
    /// A factory; nothing is opened until a transport is made.
    public init() {}

    public func makeTransport(
        device: String, bus: String?, discovering services: [BluetoothUUID], connectTimeout: Double,
        openTimeout: Double
    ) throws(TransportError) -> any DeviceTransport {
        let central: BluetoothCentral
        do { central = try BluetoothCentral.openBlocking(bus: bus.map { .address($0) } ?? .system) } catch {
            throw .operationFailed("cannot reach bluetoothd: \(error.description)", cause: error)
        }
        return BlueZTransport(
            central: central,
            configuration: .init(
                device: device, discovery: DiscoveryFilter(serviceUUIDs: services), connectTimeout: connectTimeout,
                openTimeout: openTimeout),
            ownsCentral: true)
    }

    /// Scans BlueZ for `seconds` on a bus connection of its own (closed before it returns) and returns the devices
    /// advertising one of `services`, strongest first.
    public func discover(services: [BluetoothUUID], bus: String?, seconds: Double) throws(TransportError)
        -> [DiscoveredDevice]
    {
        let central: BluetoothCentral
        do { central = try BluetoothCentral.openBlocking(bus: bus.map { .address($0) } ?? .system) } catch {
            throw .operationFailed("cannot reach bluetoothd: \(error.description)", cause: error)
        }
        defer { central.close() }
        let found: [BluetoothDeviceInfo]
        do { found = try central.scanBlocking(DiscoveryFilter(serviceUUIDs: services), seconds: seconds) } catch {
            throw .operationFailed("bluetoothd refused the scan: \(error.description)", cause: error)
        }
        return found.map {
            DiscoveredDevice(
                address: $0.address, name: $0.name ?? $0.alias, serviceUUIDs: $0.serviceUUIDs, rssi: $0.rssi)
        }
    }
}
