// AxonBluetooth — the one device of a kind in range, for a start that names none (the Brainiac SDK's `start`).

import AxonDevices
import Foundation

extension BluetoothCentral {
    /// The one device that advertises `service`, for a start that names no device, as the Brainiac SDK's `start`
    /// connects to the headset in range: the devices BlueZ already knows with the service, else a discovery of up
    /// to `seconds` in slices of up to 2 s that ends as soon as one answers and a slice adds no other.
    ///
    /// - Throws: ``OnlyDeviceError/none(seconds:)`` when none appears, ``OnlyDeviceError/several(_:)`` with every
    ///   one of them when more than one does (the caller names one); ``BluetoothError`` for the scan itself.
    public func onlyDevice(advertising service: BluetoothUUID, seconds: Double) async throws -> BluetoothDeviceInfo {
        func advertises(_ device: BluetoothDeviceInfo) -> Bool { device.serviceUUIDs.contains(service) }
        var found = Dictionary(
            (await knownDevices()).filter(advertises).map { ($0.address, $0) }, uniquingKeysWith: { $1 })
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            let before = found.count
            for device in try await scan(DiscoveryFilter(serviceUUIDs: [service]), seconds: min(2, left))
            where advertises(device) {
                found[device.address] = device
            }
            // One answered and this slice found no other: the one in range.
            if !found.isEmpty, found.count == before { break }
        }
        let devices = found.values.sorted { $0.address < $1.address }
        switch devices.count {
        case 0: throw OnlyDeviceError.none(seconds: seconds)
        case 1: return devices[0]
        default: throw OnlyDeviceError.several(devices)
        }
    }
}

/// Why ``BluetoothCentral/onlyDevice(advertising:seconds:)`` found no single device.
///
/// Threading: a value type; share freely.
public enum OnlyDeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No device with the service appeared within the seconds given.
    case none(seconds: Double)
    /// Several did; each is listed so that one can be named.
    case several([BluetoothDeviceInfo])

    /// A sentence for people; the several are listed as `name (address)`.
    public var description: String {
        switch self {
        case .none(let seconds): "no device with the service appeared within \(seconds) s"
        case .several(let devices):
            "\(devices.count) devices with the service are in range, name one: "
                + devices.map { "\($0.displayName) (\($0.address))" }.joined(separator: ", ")
        }
    }
}
