/// Why a Bluetooth operation failed.
public enum BluetoothError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus bus could not be reached or was lost.
    case bus(DBusFailure)
    /// bluetoothd (`org.bluez`) is not on the bus.
    case serviceUnavailable
    /// There is no Bluetooth adapter.
    case noAdapter
    /// No device with this address or name is known.
    case unknownDevice(String)
    /// The device has no such characteristic (after its services resolved).
    case characteristicMissing(String)
    /// The device connected but its services did not resolve in time.
    case servicesNotResolved(address: String, seconds: Double)
    /// BlueZ refused or failed the operation (its error name and message, e.g. `org.bluez.Error.Failed:
    /// le-connection-abort-by-local`).
    case bluez(name: String, message: String)

    public var description: String {
        switch self {
        case .bus(let failure): "D-Bus: \(failure)"
        case .serviceUnavailable: "bluetoothd (org.bluez) is not running on the bus"
        case .noAdapter: "no Bluetooth adapter"
        case .unknownDevice(let selector): "no Bluetooth device \(selector) is known; scan first"
        case .characteristicMissing(let what): "the device has no characteristic \(what)"
        case .servicesNotResolved(let address, let seconds): "\(address): services not resolved within \(seconds) s"
        case .bluez(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        }
    }

    init(_ failure: DBusFailure) {
        switch failure {
        case .remote(let name, let message) where name.hasPrefix("org.bluez.Error."):
            self = .bluez(name: name, message: message)
        case .remote("org.freedesktop.DBus.Error.ServiceUnknown", _), .remote("org.freedesktop.DBus.Error.NameHasNoOwner", _):
            self = .serviceUnavailable
        default:
            self = .bus(failure)
        }
    }
}
