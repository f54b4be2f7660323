import AxonDevices
import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// A Bluetooth Classic profile registered with BlueZ through its Profile API — how a process gets a device's serial
/// port (the Serial Port Profile, UUID 0x1101) from bluetoothd instead of opening an RFCOMM socket itself.
/// ``register(on:uuid:path:options:)`` exports `org.bluez.Profile1` at `path` and calls
/// `org.bluez.ProfileManager1.RegisterProfile(path, uuid, options)`. When the profile connects (the device
/// connects, or ``connect(devicePath:timeout:)`` asks through `Device1.ConnectProfile`), BlueZ calls
/// `Profile1.NewConnection(device, fd, properties)` and hands the connected socket over:
/// ``Event/connection(device:descriptor:properties:)``. `RequestDisconnection(device)` and `Release()` arrive as
/// events too.
///
///     let profile = try await BlueZProfile.register(on: central.bus, uuid: BlueZProfile.serialPort)
///     for await event in profile.events {
///         if case .connection(_, let fd, _) = event { session = ScaleSession(transport: .descriptor(fd, name: "hs3"), …) }
///     }
///
/// Threading contract: `Sendable`; any task. BlueZ's calls are handled on the bus's owner thread, which only
/// yields to ``events`` (one consumer) and replies at once.
public final class BlueZProfile: Sendable {
    /// What BlueZ tells the profile.
    public enum Event: Sendable, Hashable {
        /// BlueZ connected the profile to the device at object path `device` and hands over `descriptor`, a
        /// connected stream socket the receiver owns (for a serial port: the RFCOMM channel), with the
        /// connection's properties (`Version`, `Features` when the device's record has them).
        case connection(device: String, descriptor: Int32, properties: [String: DBusValue])
        /// BlueZ asks the profile to let go of the device at `device` (`RequestDisconnection`): close its
        /// descriptor.
        case disconnectionRequested(device: String)
        /// BlueZ released the profile (`Release`): it is registered no more (bluetoothd is stopping, say);
        /// ``events`` ends.
        case released
    }

    /// The Serial Port Profile's UUID, 0x1101.
    public static let serialPort: BluetoothUUID = "1101"
    /// `org.bluez.Profile1`.
    public static let interface = "org.bluez.Profile1"

    /// The bus BlueZ is on.
    public let bus: BusConnection
    /// Where the profile object is exported.
    public let path: String
    /// The profile's UUID.
    public let uuid: BluetoothUUID
    /// BlueZ's calls, in order; one consumer.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    private init(bus: BusConnection, path: String, uuid: BluetoothUUID) {
        self.bus = bus
        self.path = path
        self.uuid = uuid
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
    }

    /// Exports the profile object and registers it with BlueZ.
    ///
    /// - Parameter options: `RegisterProfile`'s options (`Name`, `Role` `client`/`server`, `Channel`,
    ///   `RequireAuthentication`, `AutoConnect`…), each a variant's content.
    /// - Throws: ``BluetoothError``: BlueZ's refusal (`org.bluez.Error.AlreadyExists` for a UUID registered
    ///   twice, `InvalidArguments`) or the bus's failure; then nothing stays exported.
    public static func register(
        on bus: BusConnection, uuid: BluetoothUUID = serialPort, path: String = "/org/axon/profile/serial",
        options: [String: DBusValue] = [:]
    ) async throws(BluetoothError) -> BlueZProfile {
        let profile = BlueZProfile(bus: bus, path: path, uuid: uuid)
        guard bus.perform({ profile.export() }) else { throw .bus(.disconnected) }
        let entries = options.sorted { $0.key < $1.key }.map {
            DBusValue.DictionaryEntry(key: .string($0.key), value: .variant($0.value))
        }
        do {
            _ = try await bus.call(
                DBusMethodCall(
                    destination: BlueZ.service, path: "/org/bluez", interface: "org.bluez.ProfileManager1",
                    member: "RegisterProfile",
                    arguments: [
                        .objectPath(path), .string(uuid.string),
                        .dictionary(keySignature: "s", valueSignature: "v", entries),
                    ]), timeout: 10)
        } catch let failure {
            bus.perform { bus.removeObject(path: path) }
            throw BluetoothError(failure)
        }
        return profile
    }

    /// Unregisters the profile (`ProfileManager1.UnregisterProfile`) and stops exporting it; ``events`` ends.
    ///
    /// - Throws: ``BluetoothError``; the object is removed and ``events`` ends all the same.
    public func unregister() async throws(BluetoothError) {
        defer {
            bus.perform { [bus, path] in bus.removeObject(path: path) }
            continuation.finish()
        }
        do {
            _ = try await bus.call(
                DBusMethodCall(
                    destination: BlueZ.service, path: "/org/bluez", interface: "org.bluez.ProfileManager1",
                    member: "UnregisterProfile", arguments: [.objectPath(path)]), timeout: 10)
        } catch let failure {
            throw BluetoothError(failure)
        }
    }

    /// Asks BlueZ to connect this profile to the device at `devicePath` (`Device1.ConnectProfile(uuid)`); the
    /// connection arrives on ``events`` before this returns.
    ///
    /// - Throws: ``BluetoothError``: BlueZ's refusal (`org.bluez.Error.NotAvailable`, `Failed`…).
    public func connect(devicePath: String, timeout: Double = 30) async throws(BluetoothError) {
        try await deviceCall("ConnectProfile", devicePath, timeout: timeout)
    }

    /// Asks BlueZ to disconnect this profile from the device at `devicePath` (`Device1.DisconnectProfile(uuid)`):
    /// BlueZ answers with `RequestDisconnection` first.
    ///
    /// - Throws: ``BluetoothError``.
    public func disconnect(devicePath: String, timeout: Double = 10) async throws(BluetoothError) {
        try await deviceCall("DisconnectProfile", devicePath, timeout: timeout)
    }

    private func deviceCall(_ member: String, _ devicePath: String, timeout: Double) async throws(BluetoothError) {
        do {
            _ = try await bus.call(
                DBusMethodCall(
                    destination: BlueZ.service, path: devicePath, interface: "org.bluez.Device1", member: member,
                    arguments: [.string(uuid.string)]), timeout: timeout)
        } catch let failure {
            throw BluetoothError(failure)
        }
    }

    /// Exports the object (owner thread).
    private func export() {
        bus.exportObject(path: path) { [self] call in handle(call) }
    }

    /// One call from BlueZ (owner thread): yields its event and answers.
    private func handle(_ call: DBusIncomingCall) -> Result<[DBusValue], DBusFailure> {
        let descriptors = call.arguments.compactMap { value -> Int32? in
            if case .unixFD(let fd) = value { return fd }
            return nil
        }
        func refuse(_ name: String, _ message: String) -> Result<[DBusValue], DBusFailure> {
            for fd in descriptors { _ = Glibc.close(fd) }
            return .failure(.remote(name: name, message: message))
        }
        guard call.interface == Self.interface else {
            return refuse("org.freedesktop.DBus.Error.UnknownInterface", "\(path) implements \(Self.interface)")
        }
        switch (call.member, call.arguments) {
        case ("NewConnection", let arguments) where arguments.count == 3:
            guard case .objectPath(let device) = arguments[0], case .unixFD(let fd) = arguments[1],
                let properties = arguments[2].stringKeyedDictionary
            else { return refuse("org.bluez.Error.InvalidArguments", "NewConnection takes (oha{sv})") }
            guard case .enqueued = continuation.yield(.connection(device: device, descriptor: fd, properties: properties))
            else { return refuse("org.bluez.Error.Rejected", "the profile is no longer listening") }
            return .success([])
        case ("RequestDisconnection", let arguments) where arguments.count == 1:
            guard case .objectPath(let device) = arguments[0] else {
                return refuse("org.bluez.Error.InvalidArguments", "RequestDisconnection takes (o)")
            }
            continuation.yield(.disconnectionRequested(device: device))
            return .success([])
        case ("Release", let arguments) where arguments.isEmpty:
            continuation.yield(.released)
            continuation.finish()
            bus.removeObject(path: path)
            return .success([])
        default:
            return refuse("org.freedesktop.DBus.Error.UnknownMethod", "\(Self.interface) has no \(call.member) taking these arguments")
        }
    }
}
