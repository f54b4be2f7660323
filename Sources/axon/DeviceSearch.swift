import AxonBluetooth
import AxonDevices
import Foundation

/// Finds a Bluetooth device before a command connects to it, so a device that is not there is a clear error
/// instead of a run that waits in silence: "searching for …" at once, then either the device or, after the
/// timeout, exit status 1 with every device seen meanwhile.
///
/// Threading: `locate` runs on any task; it opens its own bus connection and closes it before returning.
enum DeviceSearch {
    /// A device that did not appear.
    struct NotFound: Error, CustomStringConvertible {
        let kind: String
        let selector: String
        let seconds: Double
        let seen: [BluetoothDeviceInfo]

        var description: String {
            let list = seen.map { device in
                let kind = DeviceKindName.name(name: device.name, services: device.serviceUUIDs)
                return "\(device.displayName) (\(device.address)\(kind.isEmpty ? "" : ", \(kind)"))"
            }
            return "no \(kind) named or at \"\(TerminalText.safe(selector))\" found in \(fmt(seconds, 0)) s; "
                + (list.isEmpty ? "no Bluetooth LE device was seen" : "seen: \(TerminalText.safe(list.joined(separator: ", ")))")
        }
    }

    /// Returns once BlueZ knows a device `selector` names (its address, name or alias), scanning in slices of
    /// up to 2 s; throws ``NotFound`` after `seconds`.
    static func locate(kind: String, selector: String, bus: BusConnection.Address, seconds: Double) async throws {
        let central = try await BluetoothCentral.open(bus: bus)
        defer { central.close() }
        func matches(_ device: BluetoothDeviceInfo) -> Bool {
            device.address.uppercased() == selector.uppercased() || device.name == selector || device.alias == selector
        }
        if await central.knownDevices().contains(where: matches) { return }
        print("searching for a \(kind) named or at \"\(TerminalText.safe(selector))\" through BlueZ "
            + "(up to \(fmt(seconds, 0)) s)…")
        fflush(nil)
        let deadline = Date().addingTimeInterval(seconds)
        var seen: [String: BluetoothDeviceInfo] = [:]
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            let found = try await central.scan(.init(), seconds: min(2, left))
            if found.contains(where: matches) { return }
            for device in found { seen[device.address] = device }
        }
        throw NotFound(
            kind: kind, selector: selector, seconds: seconds,
            seen: seen.values.sorted { $0.address < $1.address })
    }
}
