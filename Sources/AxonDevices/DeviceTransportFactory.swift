/// Makes transports to a device named by the user (an advertised name or an address), for adapters that open
/// their own links whenever they need one — the OBD gateway connects, scans and reconnects by endpoint, and tries a
/// dongle's serial services one transport at a time. The adapter depends on this protocol only; which Bluetooth
/// stack is behind it is the caller's choice (`AxonBluetooth.BlueZTransportFactory` for BlueZ, chosen by the
/// command line).
///
/// Threading contract: `Sendable`; ``makeTransport(device:bus:discovering:connectTimeout:openTimeout:)`` may be
/// called from any thread and may block while it reaches the stack (a device thread calls it, never Swift's
/// cooperative pool).
public protocol DeviceTransportFactory: Sendable {
    /// A new transport to `device`, not yet open. Closing it releases everything it holds (its connection to the
    /// stack included).
    ///
    /// - Parameters:
    ///   - device: the advertised name or the address.
    ///   - bus: where the stack is reached (for BlueZ a D-Bus address); `nil`: the system's.
    ///   - services: the services to discover by when the stack does not know the device yet.
    ///   - connectTimeout: seconds for one connection attempt.
    ///   - openTimeout: seconds the transport's `open` waits for the first connection.
    /// - Throws: ``TransportError`` when the stack cannot be reached.
    func makeTransport(
        device: String, bus: String?, discovering services: [BluetoothUUID], connectTimeout: Double,
        openTimeout: Double
    ) throws(TransportError) -> any DeviceTransport
}
