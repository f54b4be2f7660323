import AxonDevices
import AxonStreams
import Dispatch
import Synchronization


/// Bluetooth LE on Linux through BlueZ's D-Bus API: discovery, connection, GATT reads, writes and notifications.
///
///     let central = try await BluetoothCentral.open()                     // the system bus
///     let found = try await central.scan(DiscoveryFilter(namePrefix: "Brainiac"), seconds: 5)
///     try await central.connect(found[0].address)
///     let level = try await central.batteryLevel(of: found[0].address)
///     central.close()
///
/// For a device that must keep streaming through link losses, use ``BlueZTransport``.
///
/// Threading contract: `Sendable`; every method may be called from any task. All BlueZ state lives on the
/// D-Bus owner thread (``BusConnection``); the methods post work there and await the result.
public final class BluetoothCentral: Sendable {
    /// The bus connection (one owner thread).
    public let bus: BusConnection
    let client: BlueZClient

    private init(bus: BusConnection) {
        self.bus = bus
        self.client = BlueZClient(bus: bus)
    }

    /// Connects to the bus, subscribes to BlueZ's signals and loads its objects.
    ///
    /// - Parameter address: `.system` (default; honours `DBUS_SYSTEM_BUS_ADDRESS`) or an explicit bus address.
    public static func open(bus address: BusConnection.Address = .system) async throws(BluetoothError) -> BluetoothCentral {
        let bus: BusConnection
        do { bus = try BusConnection(address: address) } catch { throw .bus(error) }
        let central = BluetoothCentral(bus: bus)
        let result: Result<Void, DBusFailure> = await central.onOwner { central, done in central.client.start(completion: done) }
        if case .failure(let error) = result {
            bus.shutDown()
            throw BluetoothError(error)
        }
        return central
    }

    /// ``open(bus:)`` for synchronous callers (a device thread): blocks until the central is ready, without needing
    /// Swift's cooperative thread pool (which blocking code elsewhere may have exhausted).
    public static func openBlocking(bus address: BusConnection.Address = .system) throws(BluetoothError) -> BluetoothCentral {
        let bus: BusConnection
        do { bus = try BusConnection(address: address) } catch { throw .bus(error) }
        let central = BluetoothCentral(bus: bus)
        let result: Result<Void, DBusFailure> = central.onOwnerBlocking { central, done in central.client.start(completion: done) }
        if case .failure(let error) = result {
            bus.shutDown()
            throw BluetoothError(error)
        }
        return central
    }

    /// Closes the bus connection. Streams end; waiting calls fail.
    public func close() {
        bus.shutDown()
    }

    /// Whether bluetoothd is on the bus right now.
    public var isServiceAvailable: Bool {
        get async { await onOwner { central, done in done(central.client.serviceOwner != nil) } }
    }

    /// Every device BlueZ knows now.
    public func knownDevices() async -> [BluetoothDeviceInfo] {
        await onOwner { central, done in done(central.client.tree.devices.values.sorted { $0.address < $1.address }) }
    }

    /// Discovers devices for `seconds` and returns those that pass `filter`, strongest first.
    public func scan(_ filter: DiscoveryFilter = .init(), seconds: Double) async throws(BluetoothError) -> [BluetoothDeviceInfo] {
        let result: Result<[BluetoothDeviceInfo], DBusFailure> = await onOwner(Self.scanning(filter, seconds: seconds))
        return try result.mapError(BluetoothError.init).get()
    }

    /// ``scan(_:seconds:)`` for synchronous callers (a device thread, a command's main thread): blocks for the scan
    /// without needing Swift's cooperative thread pool. Never from the D-Bus owner thread.
    public func scanBlocking(_ filter: DiscoveryFilter = .init(), seconds: Double) throws(BluetoothError) -> [BluetoothDeviceInfo] {
        let result: Result<[BluetoothDeviceInfo], DBusFailure> = onOwnerBlocking(Self.scanning(filter, seconds: seconds))
        return try result.mapError(BluetoothError.init).get()
    }

    /// The scan, run on the owner thread: discovery for `seconds`, then the known devices that pass `filter`,
    /// strongest first.
    private static func scanning(_ filter: DiscoveryFilter, seconds: Double)
        -> @Sendable (BluetoothCentral, @escaping (Result<[BluetoothDeviceInfo], DBusFailure>) -> Void) -> Void
    {
        { central, done in
            let client = central.client
            guard client.serviceOwner != nil else { return done(.failure(.remote(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: ""))) }
            client.startDiscovery(filter) { started in
                if case .failure(let error) = started { return done(.failure(error)) }
                client.bus.schedule(after: seconds) {
                    client.stopDiscovery { _ in
                        let found = client.tree.devices.values.filter(filter.matches)
                        done(.success(found.sorted { ($0.rssi ?? -999, $1.address) > ($1.rssi ?? -999, $0.address) }))
                    }
                }
            }
        }
    }

    /// Device appearances, changes and disappearances, and bluetoothd's departures and returns, from now until
    /// the stream's consumer stops or the connection ends.
    public func deviceEvents() -> AsyncStream<BluetoothDeviceEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: BluetoothDeviceEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let client = client
        let accepted = bus.perform {
            let id = client.observe { change in
                switch change {
                case .deviceAppeared(let device): continuation.yield(.appeared(device))
                case .deviceChanged(let device, _): continuation.yield(.changed(device))
                case .deviceRemoved(_, let address): continuation.yield(.disappeared(address: address))
                case .serviceVanished: continuation.yield(.serviceVanished)
                case .serviceReturned: continuation.yield(.serviceReturned)
                case .discovering: break
                }
            }
            client.bus.onDisconnect { continuation.finish() }
            continuation.onTermination = { _ in client.bus.perform { client.removeObserver(id) } }
        }
        if !accepted { continuation.finish() }
        return stream
    }

    /// Connects to a known device (by address or name) and waits until its services are resolved.
    ///
    /// - Parameters:
    ///   - timeout: seconds for `Connect` and again for `ServicesResolved`.
    public func connect(_ selector: String, timeout: Double = 10) async throws(BluetoothError) {
        let result: Result<Void, BluetoothError> = await onOwner { central, done in
            let client = central.client
            guard let device = client.tree.device(matching: selector) else { return done(.failure(.unknownDevice(selector))) }
            client.connect(devicePath: device.path, timeout: timeout) { connected in
                if case .failure(let error) = connected { return done(.failure(BluetoothError(error))) }
                client.waitForServicesResolved(devicePath: device.path, timeout: timeout) { resolved in
                    done(resolved ? .success(()) : .failure(.servicesNotResolved(address: device.address, seconds: timeout)))
                }
            }
        }
        try result.get()
    }

    /// Disconnects a device.
    public func disconnect(_ selector: String) async throws(BluetoothError) {
        let result: Result<Void, BluetoothError> = await onOwner { central, done in
            guard let device = central.client.tree.device(matching: selector) else { return done(.failure(.unknownDevice(selector))) }
            central.client.disconnect(devicePath: device.path) { done($0.mapError(BluetoothError.init)) }
        }
        try result.get()
    }

    /// Pairs with a known device (`Device1.Pair`; BlueZ connects first when it must); returns when BlueZ answered,
    /// its `Paired` property already sent (``isPaired(_:)``). A device paired already is left as it is.
    ///
    /// - Throws: ``BluetoothError/unknownDevice(_:)``; BlueZ's refusal (`AuthenticationFailed`,
    ///   `ConnectionAttemptFailed`, …) as ``BluetoothError``.
    public func pair(_ selector: String, timeout: Double = 30) async throws(BluetoothError) {
        let result: Result<Void, BluetoothError> = await onOwner { central, done in
            let client = central.client
            guard let device = client.tree.device(matching: selector) else { return done(.failure(.unknownDevice(selector))) }
            client.pair(devicePath: device.path, timeout: timeout) { done($0.mapError(BluetoothError.init)) }
        }
        try result.get()
    }

    /// Whether BlueZ has the device paired (`Paired`); `nil` when BlueZ does not know the device.
    public func isPaired(_ selector: String) async -> Bool? {
        await onOwner { central, done in done(central.client.tree.device(matching: selector)?.isPaired) }
    }

    /// Forgets a device (`Adapter1.RemoveDevice`): BlueZ disconnects it, drops its pairing keys and its object, so
    /// it must be discovered and paired again.
    ///
    /// - Throws: ``BluetoothError/unknownDevice(_:)``; BlueZ's error as ``BluetoothError``.
    public func removeDevice(_ selector: String) async throws(BluetoothError) {
        let result: Result<Void, BluetoothError> = await onOwner { central, done in
            let client = central.client
            guard let device = client.tree.device(matching: selector) else { return done(.failure(.unknownDevice(selector))) }
            client.removeDevice(devicePath: device.path) { done($0.mapError(BluetoothError.init)) }
        }
        try result.get()
    }

    /// Reads a characteristic of a connected device.
    public func read(_ characteristic: GATTCharacteristicID, of selector: String) async throws(BluetoothError) -> [UInt8] {
        let result: Result<[UInt8], BluetoothError> = await onOwner { central, done in
            central.readOnOwner(characteristic, of: selector, done)
        }
        return try result.get()
    }

    /// The read, on the owner thread.
    func readOnOwner(
        _ characteristic: GATTCharacteristicID, of selector: String, _ done: @escaping (Result<[UInt8], BluetoothError>) -> Void
    ) {
        withCharacteristic(characteristic, of: selector, done) { path in
            client.readValue(path: path) { done($0.mapError(BluetoothError.init)) }
        }
    }

    /// Writes a characteristic of a connected device, with a response (`request`) or without (`command`).
    public func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, of selector: String, withResponse: Bool = true) async throws(BluetoothError) {
        let result: Result<Void, BluetoothError> = await onOwner { central, done in
            central.writeOnOwner(value, to: characteristic, of: selector, withResponse: withResponse, done)
        }
        try result.get()
    }

    /// The write, on the owner thread.
    func writeOnOwner(
        _ value: [UInt8], to characteristic: GATTCharacteristicID, of selector: String, withResponse: Bool,
        _ done: @escaping (Result<Void, BluetoothError>) -> Void
    ) {
        withCharacteristic(characteristic, of: selector, done) { path in
            client.writeValue(path: path, value: value, withResponse: withResponse) { done($0.mapError(BluetoothError.init)) }
        }
    }

    /// The Battery Level (0x2A19) of a connected device, in percent.
    public func batteryLevel(of selector: String) async throws(BluetoothError) -> Int {
        let bytes = try await read(.batteryLevel, of: selector)
        guard let level = bytes.first else { throw .bluez(name: "org.bluez.Error.InvalidValueLength", message: "empty Battery Level") }
        return Int(level)
    }

    /// The Device Information service's strings that the device has (manufacturer, model, serial, firmware).
    public func deviceInformation(of selector: String) async -> [String: String] {
        var information: [String: String] = [:]
        let fields: [(String, BluetoothUUID)] = [
            ("manufacturer", .manufacturerName), ("model", .modelNumber), ("serial", .serialNumber), ("firmware", .firmwareRevision),
        ]
        for (key, uuid) in fields {
            let id = GATTCharacteristicID(service: .deviceInformationService, characteristic: uuid)
            if let bytes = try? await read(id, of: selector) { information[key] = String(decoding: bytes, as: UTF8.self) }
        }
        return information
    }

    // MARK: - Plumbing

    /// Runs `body` on the owner thread and awaits the value it hands to `done` (exactly once).
    func onOwner<T: Sendable>(_ body: @escaping @Sendable (BluetoothCentral, @escaping (T) -> Void) -> Void) async -> T {
        await HandOff<T>.await { deliver in
            let accepted = bus.perform { [self] in body(self, deliver) }
            if !accepted {
                // The connection has ended: once its thread is done, run the body here; every send in it fails
                // with `.disconnected`.
                bus.waitUntilFinished()
                body(self, deliver)
            }
        }
    }

    /// Runs `body` on the owner thread and blocks the calling thread until it hands a value to `done`. Never call it
    /// on the owner thread itself.
    func onOwnerBlocking<T: Sendable>(_ body: @escaping @Sendable (BluetoothCentral, @escaping (T) -> Void) -> Void) -> T {
        precondition(!bus.isOwnerThread, "a blocking call on the D-Bus thread would wait for itself")
        let delivered = DispatchSemaphore(value: 0)
        let box = ThreadLocked<T?>(nil)
        let done: @Sendable (T) -> Void = { value in
            box.withLock { $0 = value }
            delivered.signal()
        }
        let accepted = bus.perform { [self] in body(self, done) }
        if !accepted {
            bus.waitUntilFinished()
            body(self, done)
        }
        delivered.wait()
        return box.withLock { $0! }
    }

    private func withCharacteristic<T>(
        _ id: GATTCharacteristicID, of selector: String, _ done: (Result<T, BluetoothError>) -> Void, _ body: (String) -> Void
    ) {
        guard let device = client.tree.device(matching: selector) else { return done(.failure(.unknownDevice(selector))) }
        guard let characteristic = client.tree.characteristic(id, underDevice: device.path) else {
            return done(.failure(.characteristicMissing(id.description)))
        }
        body(characteristic.path)
    }
}

/// A change seen by ``BluetoothCentral/deviceEvents()``.
public enum BluetoothDeviceEvent: Sendable, Hashable {
    case appeared(BluetoothDeviceInfo)
    case changed(BluetoothDeviceInfo)
    case disappeared(address: String)
    /// bluetoothd left the bus; every device is gone with it.
    case serviceVanished
    /// bluetoothd is back; its devices appear again as it reports them.
    case serviceReturned
}
