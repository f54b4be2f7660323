import AxonDevices

/// The BlueZ side of the client: keeps BlueZ's object tree current from its signals and runs BlueZ operations,
/// all on the bus connection's owner thread (callbacks, no locks).
///
/// Threading contract: every method and property on the owner thread of ``bus`` only.
final class BlueZClient: @unchecked Sendable {
    // Sendable invariant: confined to the owner thread; the reference crosses threads only to be used there.

    /// What observers hear.
    enum Change {
        case deviceAppeared(BluetoothDeviceInfo)
        case deviceChanged(BluetoothDeviceInfo, changed: Set<String>)
        case deviceRemoved(path: String, address: String)
        case serviceVanished
        case serviceReturned
        case discovering(Bool)
    }

    let bus: BusConnection
    private(set) var tree = BlueZObjectTree()
    /// The unique name of `org.bluez`'s owner; `nil` while bluetoothd is not on the bus.
    private(set) var serviceOwner: String?
    private var observers: [Int: (Change) -> Void] = [:]
    private var valueHandlers: [String: [Int: ([UInt8], Double) -> Void]] = [:]
    private var nextID = 0

    init(bus: BusConnection) {
        self.bus = bus
    }

    /// Adds the match rules, then loads the object tree if bluetoothd is there. `completion` runs when both are
    /// done (with the first failure, if any).
    func start(completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        bus.addSignalHandler { [self] signal in handle(signal) }
        var remaining = BlueZ.matchRules.count
        var failure: DBusFailure?
        for rule in BlueZ.matchRules {
            bus.addMatch(rule) { [self] result in
                if case .failure(let error) = result { failure = failure ?? error }
                remaining -= 1
                guard remaining == 0 else { return }
                if let failure { return completion(.failure(failure)) }
                lookUpService(completion: completion)
            }
        }
    }

    private func lookUpService(completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        bus.send(
            DBusMethodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string(BlueZ.service)])
        ) { [self] result in
            switch result {
            case .success(let arguments):
                serviceOwner = arguments.first?.stringValue
                loadObjects(completion: completion)
            case .failure(.remote(let name, _)) where name == "org.freedesktop.DBus.Error.NameHasNoOwner":
                serviceOwner = nil
                completion(.success(()))  // bluetoothd not running yet: NameOwnerChanged will tell.
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    private func loadObjects(completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        bus.send(BlueZ.call("/", BlueZ.objectManager, "GetManagedObjects"), timeout: 10) { [self] result in
            switch result {
            case .success(let arguments):
                for entry in arguments.first?.dictionaryEntries ?? [] {
                    guard let path = entry.key.stringValue, let interfaces = entry.value.stringKeyedDictionary else { continue }
                    if let device = tree.add(path: path, interfaces: interfaces), let info = tree.devices[device] {
                        notify(.deviceAppeared(info))
                    }
                }
                completion(.success(()))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    // MARK: - Observers

    /// Adds an observer of tree and service changes; returns its id.
    func observe(_ observer: @escaping (Change) -> Void) -> Int {
        nextID += 1
        observers[nextID] = observer
        return nextID
    }

    func removeObserver(_ id: Int) {
        observers[id] = nil
    }

    /// Adds a handler for the values (notifications) of the characteristic at `path`; returns its id.
    func onValue(ofCharacteristic path: String, _ handler: @escaping ([UInt8], Double) -> Void) -> Int {
        nextID += 1
        valueHandlers[path, default: [:]][nextID] = handler
        return nextID
    }

    func removeValueHandler(_ id: Int, path: String) {
        valueHandlers[path]?[id] = nil
        if valueHandlers[path]?.isEmpty == true { valueHandlers[path] = nil }
    }

    private func notify(_ change: Change) {
        for observer in observers.values { observer(change) }
    }

    // MARK: - Signals

    private func handle(_ signal: DBusSignal) {
        switch (signal.interface, signal.member) {
        case (BlueZ.properties, "PropertiesChanged"):
            propertiesChanged(signal)
        case (BlueZ.objectManager, "InterfacesAdded"):
            guard let path = signal.arguments.first?.stringValue,
                let interfaces = signal.arguments.dropFirst().first?.stringKeyedDictionary
            else { return }
            let known = tree.devices[path] != nil
            if let device = tree.add(path: path, interfaces: interfaces), let info = tree.devices[device] {
                notify(known ? .deviceChanged(info, changed: Set(interfaces[BlueZ.deviceInterface]?.stringKeyedDictionary?.keys.map { $0 } ?? [])) : .deviceAppeared(info))
            }
        case (BlueZ.objectManager, "InterfacesRemoved"):
            guard let path = signal.arguments.first?.stringValue else { return }
            let address = tree.devices[path]?.address ?? BluetoothDeviceInfo.address(fromPath: path)
            if tree.remove(path: path, interfaces: signal.arguments.dropFirst().first?.stringArrayValue ?? []) != nil {
                notify(.deviceRemoved(path: path, address: address))
            }
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard signal.arguments.first?.stringValue == BlueZ.service else { return }
            let newOwner = signal.arguments.count > 2 ? signal.arguments[2].stringValue ?? "" : ""
            serviceOwnerChanged(to: newOwner)
        default:
            break
        }
    }

    private func propertiesChanged(_ signal: DBusSignal) {
        guard signal.arguments.count >= 2, let interface = signal.arguments[0].stringValue else { return }
        let changed = signal.arguments[1].stringKeyedDictionary ?? [:]
        let invalidated = signal.arguments.count > 2 ? signal.arguments[2].stringArrayValue ?? [] : []
        switch interface {
        case BlueZ.characteristicInterface:
            // A notification: one PropertiesChanged per notified value, even if unchanged.
            guard let value = changed["Value"]?.bytesValue, let handlers = valueHandlers[signal.path] else { return }
            for handler in handlers.values { handler(value, signal.arrivalTime) }
        case BlueZ.deviceInterface:
            guard var device = tree.devices[signal.path] else { return }
            device.apply(changed, invalidated: invalidated)
            tree.devices[signal.path] = device
            notify(.deviceChanged(device, changed: Set(changed.keys).union(invalidated)))
        case BlueZ.adapterInterface:
            if let discovering = changed["Discovering"]?.boolValue { notify(.discovering(discovering)) }
            if let powered = changed["Powered"]?.boolValue { tree.adapters[signal.path] = powered }
        default:
            break
        }
    }

    private func serviceOwnerChanged(to newOwner: String) {
        if newOwner.isEmpty {
            // bluetoothd went away: its objects vanish without InterfacesRemoved.
            serviceOwner = nil
            tree.removeAll()
            notify(.serviceVanished)
        } else {
            serviceOwner = newOwner
            tree.removeAll()
            loadObjects { [self] _ in notify(.serviceReturned) }
        }
    }

    // MARK: - Operations

    /// Sets the discovery filter and starts discovery on the first adapter.
    func startDiscovery(_ filter: DiscoveryFilter, completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        guard let adapter = tree.adapterPath else {
            return completion(.failure(.remote(name: "org.bluez.Error.NotReady", message: "no Bluetooth adapter")))
        }
        bus.send(BlueZ.call(adapter, BlueZ.adapterInterface, "SetDiscoveryFilter", [filter.dbusArgument])) { [self] result in
            if case .failure(let error) = result { return completion(.failure(error)) }
            bus.send(BlueZ.call(adapter, BlueZ.adapterInterface, "StartDiscovery")) { result in
                switch result {
                case .success, .failure(.remote(BlueZ.inProgress, _)): completion(.success(()))
                case .failure(let error): completion(.failure(error))
                }
            }
        }
    }

    func stopDiscovery(completion: @escaping (Result<Void, DBusFailure>) -> Void = { _ in }) {
        guard let adapter = tree.adapterPath else { return completion(.success(())) }
        bus.send(BlueZ.call(adapter, BlueZ.adapterInterface, "StopDiscovery")) { completion($0.map { _ in () }) }
    }

    /// `Device1.Connect` with an explicit timeout (LE connects take from 0.1 s to several seconds).
    func connect(devicePath: String, timeout: Double, completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        bus.send(BlueZ.call(devicePath, BlueZ.deviceInterface, "Connect"), timeout: timeout) { result in
            switch result {
            case .success, .failure(.remote(BlueZ.alreadyConnected, _)): completion(.success(()))
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    /// `Device1.Pair` (BlueZ connects first when it must); a device paired already (`AlreadyExists`) is success.
    func pair(devicePath: String, timeout: Double, completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        bus.send(BlueZ.call(devicePath, BlueZ.deviceInterface, "Pair"), timeout: timeout) { result in
            switch result {
            case .success, .failure(.remote(BlueZ.alreadyExists, _)): completion(.success(()))
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    /// `Adapter1.RemoveDevice`: disconnects the device, forgets its pairing keys and removes its object.
    func removeDevice(devicePath: String, completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        guard let adapter = tree.adapterPath else {
            return completion(.failure(.remote(name: "org.bluez.Error.NotReady", message: "no Bluetooth adapter")))
        }
        bus.send(BlueZ.call(adapter, BlueZ.adapterInterface, "RemoveDevice", [.objectPath(devicePath)]), timeout: 10) {
            completion($0.map { _ in () })
        }
    }

    func disconnect(devicePath: String, completion: @escaping (Result<Void, DBusFailure>) -> Void = { _ in }) {
        bus.send(BlueZ.call(devicePath, BlueZ.deviceInterface, "Disconnect"), timeout: 10) { completion($0.map { _ in () }) }
    }

    /// Calls `completion(true)` once the device's `ServicesResolved` is true (at once if it already is), or
    /// `false` after `timeout` seconds or if the device goes away first.
    func waitForServicesResolved(devicePath: String, timeout: Double, completion: @escaping (Bool) -> Void) {
        if tree.devices[devicePath]?.servicesResolved == true { return completion(true) }
        var observer = 0
        var timer = 0
        var done = false
        let finish = { [self] (resolved: Bool) in
            guard !done else { return }
            done = true
            removeObserver(observer)
            bus.cancelTimer(timer)
            completion(resolved)
        }
        observer = observe { change in
            switch change {
            case .deviceChanged(let device, _) where device.path == devicePath:
                if device.servicesResolved { finish(true) } else if !device.isConnected { finish(false) }
            case .deviceRemoved(let path, _) where path == devicePath: finish(false)
            case .serviceVanished: finish(false)
            default: break
            }
        }
        timer = bus.schedule(after: timeout) { finish(false) }
    }

    func readValue(path: String, completion: @escaping (Result<[UInt8], DBusFailure>) -> Void) {
        bus.send(BlueZ.call(path, BlueZ.characteristicInterface, "ReadValue", [.properties([])]), timeout: 10) { result in
            completion(result.flatMap { arguments in
                guard let bytes = arguments.first?.bytesValue else {
                    return .failure(.unexpectedReply(member: "ReadValue", signature: arguments.map(\.signature).joined()))
                }
                return .success(bytes)
            })
        }
    }

    func writeValue(path: String, value: [UInt8], withResponse: Bool, completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        let options = DBusValue.properties([("type", .string(withResponse ? "request" : "command"))])
        bus.send(BlueZ.call(path, BlueZ.characteristicInterface, "WriteValue", [.bytes(value), options]), timeout: 10) {
            completion($0.map { _ in () })
        }
    }

    /// `StartNotify`. `InProgress` — BlueZ re-subscribing an existing session after a reconnect — counts as success.
    func startNotify(path: String, completion: @escaping (Result<Void, DBusFailure>) -> Void) {
        bus.send(BlueZ.call(path, BlueZ.characteristicInterface, "StartNotify"), timeout: 10) { result in
            switch result {
            case .success, .failure(.remote(BlueZ.inProgress, _)): completion(.success(()))
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    func stopNotify(path: String, completion: @escaping (Result<Void, DBusFailure>) -> Void = { _ in }) {
        bus.send(BlueZ.call(path, BlueZ.characteristicInterface, "StopNotify"), timeout: 5) { completion($0.map { _ in () }) }
    }
}
