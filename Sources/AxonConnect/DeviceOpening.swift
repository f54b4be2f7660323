import AxonBluetooth
import AxonSensors
import AxonDevices
import AxonLSL
import AxonOpenBCI
import Foundation

/// What opening a device is doing, for a command to show: the library prints nothing itself.
///
/// Threading: a value type; share freely.
public enum DeviceOpeningEvent: Sendable, Hashable {
    /// BlueZ does not know the device `selector` names yet: a scan of up to `seconds` has begun.
    case searching(kind: String, selector: String, seconds: Double)
    /// A scan for the only device of `kind` in range (no name given) has begun, for up to `seconds`.
    case searchingForTheOnly(kind: String, seconds: Double)
    /// The only device in range was found; it is opened next.
    case found(BluetoothDeviceInfo)
    /// An OpenBCI Cyton on `path` answered its soft reset with `banner` and streams `channels` channels at `rate` Hz
    /// (`daisy`: a Daisy module doubles the channels, its packets alternating with the board's).
    case cytonAnswered(path: String, banner: [String], channels: Int, rate: Double, daisy: Bool)
}

/// Why a device SOURCE could not be opened. The underlying error, where there is one, is kept as a value.
///
/// Threading: a value type; share freely.
public enum DeviceOpeningError: Error, CustomStringConvertible {
    /// The SOURCE is a file, the simulator or a test sequence, not a device ``LiveEEGDevice`` opens.
    case notALiveDevice(SourceSpecifier)
    /// No device `selector` names appeared within `seconds`; `seen` lists every device seen meanwhile.
    case notFound(kind: String, selector: String, seconds: Double, seen: [BluetoothDeviceInfo])
    /// No device of `kind` appeared within `seconds` (none was named).
    case noneInRange(kind: String, seconds: Double)
    /// Several devices of `kind` are in range and none was named.
    case severalInRange(kind: String, devices: [BluetoothDeviceInfo])
    /// The bus, BlueZ or the link failed.
    case bluetooth(BluetoothError)
    /// The Cyton on `path` could not be opened or did not answer.
    case cyton(path: String, CytonError)
    /// liblsl could not be loaded or configured, the stream selector is wrong, or the stream could not be opened.
    case lsl(LSLError)
    /// The device answered but its source could not be made (for example an unknown Muse preset).
    case connectionFailed(device: String, cause: any Error)
    /// The sensor description file at `path` could not be read or is not valid (every problem, with its path).
    case sensorDescription(path: String, SensorDescriptionError)
    /// The described sensor's source could not be made (its UDP port could not be bound).
    case sensor(name: String, DescribedSensorError)

    /// A sentence for people (device names are shown as received: a terminal printer escapes them).
    public var description: String {
        switch self {
        case .notALiveDevice(let specifier):
            return "\(specifier) is no device Axon opens here; expected cyton:PATH, muse:NAME|ADDRESS, "
                + "ganglion:NAME|ADDRESS, lsl:NAME|lsl:type=T|lsl:source_id=ID or sensor:FILE.json (every SOURCE: "
                + "\(SourceSpecifier.forms))"
        case .notFound(let kind, let selector, let seconds, let seen):
            let list = seen.map { device in
                let kind = DeviceKindName.name(name: device.name, services: device.serviceUUIDs)
                return "\(device.displayName) (\(device.address)\(kind.isEmpty ? "" : ", \(kind)"))"
            }
            return "no \(kind) named or at \"\(selector)\" found in \(Self.seconds(seconds)) s; "
                + (list.isEmpty ? "no Bluetooth LE device was seen" : "seen: \(list.joined(separator: ", "))")
        case .noneInRange(let kind, let seconds):
            return "no \(kind) appeared within \(Self.seconds(seconds)) s"
        case .severalInRange(let kind, let devices):
            return "\(devices.count) \(kind)s are in range; name one as ble:NAME or ble:ADDRESS: "
                + devices.map { "\($0.displayName) (\($0.address))" }.joined(separator: ", ")
        case .bluetooth(let error): return "\(error)"
        case .cyton(let path, let error): return "Cyton on \(path): \(error)"
        case .lsl(let error): return "\(error)"
        case .connectionFailed(let device, let cause): return "\(device): \(cause)"
        case .sensorDescription(let path, .invalid(let problems)):
            return "sensor description \(path):\n" + problems.map { "  \($0)" }.joined(separator: "\n")
        case .sensorDescription(let path, let error): return "sensor description \(path): \(error)"
        case .sensor(let name, let error): return "sensor \(name): \(error)"
        }
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.0f", value) }
}
