import AxonDevices

/// What BlueZ knows about a remote device (its `org.bluez.Device1` properties).
///
/// Threading: a value type; share freely.
public struct BluetoothDeviceInfo: Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus object path (`/org/bluez/hci0/dev_C0_FF_EE_00_00_01`).
    public var path: String
    /// `C0:FF:EE:00:00:01`: the address BlueZ reports (`Address`). For a bonded LE device that uses resolvable
    /// private addresses it is the device's identity address: BlueZ resolves every new private address with the
    /// bond's key and keeps one object for the device.
    public var address: String
    /// BlueZ's `AddressType`: `public` or `random`; `nil` when not reported.
    public var addressType: String?
    /// The advertised name, when the device sent one.
    public var name: String?
    /// BlueZ's alias (the name, or the address with dashes when there is none).
    public var alias: String?
    /// Received signal strength in dBm of the latest advertisement, while discovery sees it.
    public var rssi: Int?
    /// Advertised (or, after connection, discovered) service UUIDs.
    public var serviceUUIDs: [BluetoothUUID]
    public var isConnected: Bool
    public var servicesResolved: Bool
    /// Whether the device is paired (`Paired`).
    public var isPaired: Bool
    /// Whether the pairing keys are stored for later connections (`Bonded`).
    public var isBonded: Bool
    /// Manufacturer data by company id.
    public var manufacturerData: [UInt16: [UInt8]]

    /// The kind of ``address`` (whether it lasts), when BlueZ reported its type.
    public var addressKind: BluetoothAddressKind? { BluetoothAddressKind(address: address, type: addressType) }

    /// The address the object was created for: BlueZ names a device's object after the address it was first seen
    /// at and keeps that path when bonding reveals the identity address (``address`` changes, the path does not).
    public var pathAddress: String { Self.address(fromPath: path) }

    /// The name to show: the advertised name, else the alias, else the address.
    public var displayName: String { name ?? alias ?? address }

    public var description: String {
        let rssiText = rssi.map { "\($0) dBm" } ?? "–"
        return "\(displayName) [\(address)] RSSI \(rssiText) services \(serviceUUIDs.map(\.description).joined(separator: ","))"
    }

    init(path: String) {
        self.path = path
        self.address = BluetoothDeviceInfo.address(fromPath: path)
        self.serviceUUIDs = []
        self.isConnected = false
        self.servicesResolved = false
        self.isPaired = false
        self.isBonded = false
        self.manufacturerData = [:]
    }

    /// `…/dev_C0_FF_EE_00_00_01` → `C0:FF:EE:00:00:01`.
    static func address(fromPath path: String) -> String {
        guard let last = path.split(separator: "/").last, last.hasPrefix("dev_") else { return path }
        return last.dropFirst(4).replacingOccurrences(of: "_", with: ":")
    }

    /// Applies changed `Device1` properties; `invalidated` ones become unknown.
    mutating func apply(_ properties: [String: DBusValue], invalidated: [String] = []) {
        for (key, value) in properties {
            switch key {
            case "Address": if let v = value.stringValue { address = v }
            case "AddressType": addressType = value.stringValue
            case "Name": name = value.stringValue
            case "Alias": alias = value.stringValue
            case "RSSI": rssi = value.integerValue
            case "UUIDs": serviceUUIDs = (value.stringArrayValue ?? []).compactMap(BluetoothUUID.init(parsing:))
            case "Connected": isConnected = value.boolValue ?? false
            case "ServicesResolved": servicesResolved = value.boolValue ?? false
            case "Paired": isPaired = value.boolValue ?? false
            case "Bonded": isBonded = value.boolValue ?? false
            case "ManufacturerData":
                var data: [UInt16: [UInt8]] = [:]
                for entry in value.dictionaryEntries ?? [] {
                    if let id = entry.key.integerValue, let bytes = entry.value.bytesValue { data[UInt16(truncatingIfNeeded: id)] = bytes }
                }
                manufacturerData = data
            default: break
            }
        }
        for key in invalidated {
            switch key {
            case "Name": name = nil
            case "RSSI": rssi = nil
            case "ManufacturerData": manufacturerData = [:]
            default: break
            }
        }
    }
}

private extension Substring {
    func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
