import AxonBluetooth
import AxonBrainiac
import AxonDevices
import Foundation

/// Finds a Bluetooth device before a command connects to it, so a device that is not there is a clear error instead
/// of a run that waits in silence: a ``DeviceOpeningEvent/searching(kind:selector:seconds:)`` event at once, then
/// either the device or, after the timeout, ``DeviceOpeningError/notFound(kind:selector:seconds:seen:)`` with every
/// device seen meanwhile.
///
/// Threading: every function runs on any task; each opens its own bus connection for the search and closes it before
/// returning. `progress` is called on the calling task.
public enum DeviceSearch {
    /// Returns once BlueZ knows a device `selector` names (its address, name or alias), scanning in slices of up to
    /// 2 s; reports ``DeviceOpeningEvent/searching(kind:selector:seconds:)`` when it has to scan.
    ///
    /// - Throws: ``DeviceOpeningError/notFound(kind:selector:seconds:seen:)`` after `seconds`;
    ///   ``DeviceOpeningError/bluetooth(_:)`` when the bus or BlueZ fails.
    public static func locate(
        kind: String, selector: String, bus: BusConnection.Address, seconds: Double,
        progress: (DeviceOpeningEvent) -> Void = { _ in }
    ) async throws(DeviceOpeningError) {
        let central = try await openCentral(bus)
        defer { central.close() }
        func matches(_ device: BluetoothDeviceInfo) -> Bool {
            device.address.uppercased() == selector.uppercased() || device.name == selector || device.alias == selector
        }
        if await central.knownDevices().contains(where: matches) { return }
        progress(.searching(kind: kind, selector: selector, seconds: seconds))
        let deadline = Date().addingTimeInterval(seconds)
        var seen: [String: BluetoothDeviceInfo] = [:]
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            let found: [BluetoothDeviceInfo]
            do { found = try await central.scan(.init(), seconds: min(2, left)) } catch {
                throw .bluetooth(error)
            }
            if found.contains(where: matches) { return }
            for device in found { seen[device.address] = device }
        }
        throw .notFound(kind: kind, selector: selector, seconds: seconds, seen: seen.values.sorted { $0.address < $1.address })
    }

    /// A transport that finds the device (``locate(kind:selector:bus:seconds:progress:)``) and then keeps it
    /// connected through link losses, bluetoothd restarts and a restart of the bus daemon itself, discovering by
    /// `service`.
    ///
    /// - Throws: what `locate` throws; ``DeviceOpeningError/bluetooth(_:)`` when the transport cannot start.
    public static func transport(
        kind: String, selector: String, service: BluetoothUUID, bus: BusConnection.Address, seconds: Double,
        progress: (DeviceOpeningEvent) -> Void = { _ in }
    ) async throws(DeviceOpeningError) -> BusRecoveringTransport {
        try await locate(kind: kind, selector: selector, bus: bus, seconds: seconds, progress: progress)
        do {
            return try await BusRecoveringTransport.open(
                bus: bus, device: .init(device: selector, discovery: DiscoveryFilter(serviceUUIDs: [service])))
        } catch {
            throw .bluetooth(error)
        }
    }

    /// The Brainiac headset's transport. An empty `selector` (`ble:`) is the one headset in range, as the SDK's
    /// `start` needs no name: it reports ``DeviceOpeningEvent/searchingForTheOnly(kind:seconds:)`` and then
    /// ``DeviceOpeningEvent/found(_:)``; several in range or none is an error.
    ///
    /// - Throws: ``DeviceOpeningError/noneInRange(kind:seconds:)``,
    ///   ``DeviceOpeningError/severalInRange(kind:devices:)``, or what
    ///   ``transport(kind:selector:service:bus:seconds:progress:)`` throws.
    public static func brainiacTransport(
        selector: String, bus: BusConnection.Address, seconds: Double, profile: BrainiacGATTProfile = .init(),
        progress: (DeviceOpeningEvent) -> Void = { _ in }
    ) async throws(DeviceOpeningError) -> BusRecoveringTransport {
        let kind = "Brainiac headset"
        var selector = selector
        if selector.isEmpty {
            progress(.searchingForTheOnly(kind: kind, seconds: seconds))
            let central = try await openCentral(bus)
            defer { central.close() }
            do {
                let headset = try await central.onlyDevice(advertising: profile.service, seconds: seconds)
                progress(.found(headset))
                selector = headset.address
            } catch let error as OnlyDeviceError {
                switch error {
                case .none(let seconds): throw .noneInRange(kind: kind, seconds: seconds)
                case .several(let devices): throw .severalInRange(kind: kind, devices: devices)
                }
            } catch let error as BluetoothError {
                throw .bluetooth(error)
            } catch {
                throw .connectionFailed(device: kind, cause: error)
            }
        }
        return try await transport(
            kind: kind, selector: selector, service: profile.service, bus: bus, seconds: seconds, progress: progress)
    }

    private static func openCentral(_ bus: BusConnection.Address) async throws(DeviceOpeningError) -> BluetoothCentral {
        do { return try await BluetoothCentral.open(bus: bus) } catch { throw .bluetooth(error) }
    }
}
