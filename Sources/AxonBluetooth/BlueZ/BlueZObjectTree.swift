import AxonDevices

/// BlueZ's objects as the client knows them: adapters, devices, GATT services and characteristics, kept from
/// `GetManagedObjects`, `InterfacesAdded`/`InterfacesRemoved` and `PropertiesChanged`.
///
/// Threading: owned by the connection's owner thread.
struct BlueZObjectTree {
    struct Characteristic: Hashable {
        let path: String
        let uuid: BluetoothUUID
        let servicePath: String
        var flags: [String]
    }

    var adapters: [String: Bool] = [:]  // path → Powered
    var devices: [String: BluetoothDeviceInfo] = [:]
    var services: [String: BluetoothUUID] = [:]  // path → UUID
    var characteristics: [String: Characteristic] = [:]

    /// The first powered adapter's path (BlueZ numbers them hci0, hci1…).
    var adapterPath: String? {
        adapters.filter(\.value).keys.sorted().first ?? adapters.keys.sorted().first
    }

    mutating func removeAll() {
        self = BlueZObjectTree()
    }

    /// Adds or updates the interfaces of one object (a `GetManagedObjects` entry or `InterfacesAdded`).
    /// Returns the device path when a device appeared or changed.
    @discardableResult
    mutating func add(path: String, interfaces: [String: DBusValue]) -> String? {
        var devicePath: String?
        for (interface, value) in interfaces {
            let properties = value.stringKeyedDictionary ?? [:]
            switch interface {
            case BlueZ.adapterInterface:
                adapters[path] = properties["Powered"]?.boolValue ?? true
            case BlueZ.deviceInterface:
                var device = devices[path] ?? BluetoothDeviceInfo(path: path)
                device.apply(properties)
                devices[path] = device
                devicePath = path
            case BlueZ.gattServiceInterface:
                if let uuid = properties["UUID"]?.stringValue.flatMap(BluetoothUUID.init(parsing:)) { services[path] = uuid }
            case BlueZ.characteristicInterface:
                if let uuid = properties["UUID"]?.stringValue.flatMap(BluetoothUUID.init(parsing:)) {
                    let service = properties["Service"]?.stringValue ?? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
                    characteristics[path] = Characteristic(
                        path: path, uuid: uuid, servicePath: service, flags: properties["Flags"]?.stringArrayValue ?? [])
                }
            default:
                break  // Introspectable, Properties and interfaces Axon does not use.
            }
        }
        return devicePath
    }

    /// Removes interfaces of one object (`InterfacesRemoved`). Returns the device path when a device went away.
    mutating func remove(path: String, interfaces: [String]) -> String? {
        var removedDevice: String?
        for interface in interfaces {
            switch interface {
            case BlueZ.adapterInterface: adapters[path] = nil
            case BlueZ.deviceInterface:
                if devices.removeValue(forKey: path) != nil { removedDevice = path }
                let prefix = path + "/"
                services = services.filter { !$0.key.hasPrefix(prefix) }
                characteristics = characteristics.filter { !$0.key.hasPrefix(prefix) }
            case BlueZ.gattServiceInterface: services[path] = nil
            case BlueZ.characteristicInterface: characteristics[path] = nil
            default: break
            }
        }
        return removedDevice
    }

    /// The device with this address (case-insensitive) or exact name/alias.
    func device(matching selector: String) -> BluetoothDeviceInfo? {
        let upper = selector.uppercased()
        return devices.values.sorted { $0.path < $1.path }.first {
            $0.address.uppercased() == upper || $0.name == selector || $0.alias == selector
        }
    }

    /// The characteristic `id` under the device at `devicePath`, found by UUID (never by handle).
    func characteristic(_ id: GATTCharacteristicID, underDevice devicePath: String) -> Characteristic? {
        let prefix = devicePath + "/"
        return characteristics.values.sorted { $0.path < $1.path }.first { characteristic in
            guard characteristic.path.hasPrefix(prefix), characteristic.uuid == id.characteristic else { return false }
            guard let wanted = id.service else { return true }
            return services[characteristic.servicePath] == wanted
        }
    }
}
