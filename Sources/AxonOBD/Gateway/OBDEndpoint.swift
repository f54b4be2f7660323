import AxonDevices

/// Where an ELM327 dongle is reached: a serial device (USB, rfcomm, pty), a TCP address or Bluetooth LE.
///
/// Threading: a value type; share freely.
public enum OBDEndpoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A serial device path and its baud rate.
    case serial(path: String, baudRate: Int)
    /// A TCP host and port.
    case tcp(host: String, port: UInt16)
    /// A Bluetooth LE dongle by name or address, through the gateway's Bluetooth stack (``OBDGateway/bluetooth``;
    /// for BlueZ, bluetoothd on the system bus or on the bus at `bus`).
    case ble(device: String, bus: String?)

    /// Parses `HOST:PORT` (for `--tcp`).
    public static func tcp(_ text: String) -> OBDEndpoint? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            return nil
        }
        let host = String(text[..<colon])
        return host.isEmpty ? nil : .tcp(host: host, port: port)
    }

    /// A link for this endpoint (not yet open). A Bluetooth LE endpoint's transports come from `bluetooth`;
    /// without one its link's `open()` fails with ``AxonDevices/ByteLinkError/cannotOpen(endpoint:code:reason:)``.
    public func makeLink(bluetooth: (any DeviceTransportFactory)? = nil) -> any OBDByteLink {
        switch self {
        case .serial(let path, let baudRate): return SerialLink(path: path, baudRate: baudRate)
        case .tcp(let host, let port): return TCPLink(host: host, port: port)
        case .ble(let device, let bus): return BLESerialLink(device: device, bus: bus, factory: bluetooth)
        }
    }

    /// "/dev/ttyUSB0" or "tcp:HOST:PORT".
    public var description: String {
        switch self {
        case .serial(let path, _): return path
        case .tcp(let host, let port): return "tcp:\(host):\(port)"
        case .ble(let device, _): return "ble:\(device)"
        }
    }
}

/// A dongle that answered a scan: what the seed's `onOBDDeviceFound(deviceName:identifier:)` reports.
///
/// Threading: a value type; share freely.
public struct OBDDevice: Sendable, Hashable, Codable {
    /// The name to connect by: the adapter's device description (`AT@1`) and banner, e.g.
    /// "OBDII to RS232 Interpreter (ELM327 v1.5)".
    public var name: String
    /// The identifier: the endpoint ("tcp:127.0.0.1:35000", "/dev/rfcomm0").
    public var identifier: String
    /// The reset banner ("ELM327 v1.5").
    public var banner: String
    /// How to reach it.
    public var endpoint: OBDEndpoint

    /// Creates a device description.
    public init(name: String, identifier: String, banner: String, endpoint: OBDEndpoint) {
        self.name = name
        self.identifier = identifier
        self.banner = banner
        self.endpoint = endpoint
    }
}
