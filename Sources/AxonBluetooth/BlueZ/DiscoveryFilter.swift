import AxonDevices

/// Which devices a scan reports: BlueZ's `SetDiscoveryFilter` plus the same rules applied again to what arrives
/// (so devices BlueZ already knew, or that another client's discovery found, are filtered too).
public struct DiscoveryFilter: Sendable, Hashable {
    /// Devices advertising any of these services; empty = any.
    public var serviceUUIDs: [BluetoothUUID]
    /// Devices whose name or address starts with this (BlueZ's `Pattern`); `nil` = any.
    public var namePrefix: String?
    /// Devices at least this strong, in dBm; `nil` = any.
    public var minimumRSSI: Int?

    public init(serviceUUIDs: [BluetoothUUID] = [], namePrefix: String? = nil, minimumRSSI: Int? = nil) {
        self.serviceUUIDs = serviceUUIDs
        self.namePrefix = namePrefix
        self.minimumRSSI = minimumRSSI
    }

    /// Whether `device` passes.
    public func matches(_ device: BluetoothDeviceInfo) -> Bool {
        if !serviceUUIDs.isEmpty, !device.serviceUUIDs.contains(where: serviceUUIDs.contains) { return false }
        if let namePrefix, !namePrefix.isEmpty {
            let names = [device.name, device.alias, device.address].compactMap { $0 }
            if !names.contains(where: { $0.hasPrefix(namePrefix) }) { return false }
        }
        if let minimumRSSI, let rssi = device.rssi, rssi < minimumRSSI { return false }
        return true
    }

    /// `SetDiscoveryFilter`'s argument (LE transport only: every Axon device is a BLE peripheral).
    var dbusArgument: DBusValue {
        var entries: [(String, DBusValue)] = [("Transport", .string("le"))]
        if !serviceUUIDs.isEmpty { entries.append(("UUIDs", .strings(serviceUUIDs.map(\.string)))) }
        if let minimumRSSI { entries.append(("RSSI", .int16(Int16(clamping: minimumRSSI)))) }
        if let namePrefix, !namePrefix.isEmpty { entries.append(("Pattern", .string(namePrefix))) }
        return .properties(entries)
    }
}
