import AxonDevices
import AxonStreams

/// The Nordic dongle's own characteristics the seed names — battery life, LED status, device name and the button's
/// state — in the dongle's service (``ResearchBITProfile/nordicService``), beside the command and summary
/// characteristics it shares with the ResearchBIT sensor. The SDK keeps their UUIDs private, so Axon defines them
/// (docs/researchbit-protocol.md).
///
/// Threading: a value type; share freely.
public enum NordicDongleCharacteristic: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Battery level: one byte, 0–100 %; read and notify.
    case battery
    /// The LED: one byte, 0 off, 1 on; read and write.
    case led
    /// The device name: 1–20 bytes of UTF-8; read.
    case name
    /// The button: one byte, 0 up, 1 pressed down; read and notify.
    case button

    /// The characteristic's UUID.
    public var uuid: BluetoothUUID {
        switch self {
        case .battery: "5242b003-7a3c-4e1d-9a51-52657362a000"
        case .led: "5242b004-7a3c-4e1d-9a51-52657362a000"
        case .name: "5242b005-7a3c-4e1d-9a51-52657362a000"
        case .button: "5242b006-7a3c-4e1d-9a51-52657362a000"
        }
    }

    /// Where it is: the Nordic dongle's service.
    public var id: GATTCharacteristicID {
        GATTCharacteristicID(service: ResearchBITProfile.nordicService, characteristic: uuid)
    }

    /// Whether the dongle notifies its changes (battery and button do).
    public var notifies: Bool { self == .battery || self == .button }

    /// The characteristic with this id, if it is one of the dongle's.
    public init?(_ id: GATTCharacteristicID) {
        guard let found = Self.allCases.first(where: { $0.id == id }) else { return nil }
        self = found
    }

    public var description: String { rawValue }
}

/// A value read or notified from a Nordic dongle's characteristic.
///
/// Threading: a value type; share freely.
public enum NordicDongleValue: Sendable, Hashable {
    /// Battery level, 0–100 %.
    case battery(Int)
    /// Whether the LED is on.
    case led(Bool)
    /// The device name.
    case name(String)
    /// Whether the button is pressed down.
    case button(pressed: Bool)

    /// Decodes `bytes` as `characteristic`'s value.
    ///
    /// - Throws: ``NordicDongleError/invalidValue(_:_:)`` for a wrong length or a value out of range.
    public init(decoding bytes: [UInt8], of characteristic: NordicDongleCharacteristic) throws(NordicDongleError) {
        switch characteristic {
        case .battery:
            guard bytes.count == 1, bytes[0] <= 100 else { throw .invalidValue(characteristic, bytes) }
            self = .battery(Int(bytes[0]))
        case .led:
            guard bytes.count == 1, bytes[0] <= 1 else { throw .invalidValue(characteristic, bytes) }
            self = .led(bytes[0] == 1)
        case .name:
            guard (1...20).contains(bytes.count), let name = String(validating: bytes, as: UTF8.self) else {
                throw .invalidValue(characteristic, bytes)
            }
            self = .name(name)
        case .button:
            guard bytes.count == 1, bytes[0] <= 1 else { throw .invalidValue(characteristic, bytes) }
            self = .button(pressed: bytes[0] == 1)
        }
    }

    /// The characteristic it belongs to.
    public var characteristic: NordicDongleCharacteristic {
        switch self {
        case .battery: .battery
        case .led: .led
        case .name: .name
        case .button: .button
        }
    }

    /// The bytes on the wire (the simulators' side).
    public var bytes: [UInt8] {
        switch self {
        case .battery(let level): [UInt8(clamping: level)]
        case .led(let on): [on ? 1 : 0]
        case .name(let name): Array(name.utf8)
        case .button(let pressed): [pressed ? 1 : 0]
        }
    }
}

/// Why a Nordic dongle operation failed.
///
/// Threading: a value type; share freely.
public enum NordicDongleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The transport failed (no device, not connected, a failed read or write).
    case transport(TransportError)
    /// The dongle sent a value that is not what the characteristic holds.
    case invalidValue(NordicDongleCharacteristic, [UInt8])
    /// The client does not watch this characteristic (the seed: only the chosen characteristics are fetched).
    case notWatched(NordicDongleCharacteristic)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .transport(let error): "\(error)"
        case .invalidValue(let characteristic, let bytes):
            "the dongle's \(characteristic) value \(bytes) is not valid"
        case .notWatched(let characteristic): "the \(characteristic) characteristic is not watched by this client"
        }
    }
}

/// The Nordic dongle's battery, LED, name and button over any ``AxonDevices/DeviceTransport``, watching only the
/// characteristics chosen (the seed: "define the UUIDs for just a couple of them like the LED status or button
/// state … only receive notifications/data for those", to save the dongle's energy). The others are never read or
/// subscribed to.
///
///     let dongle = NordicDongleClient(transport: transport, watching: [.led, .button])
///     try await dongle.open()
///     try await dongle.setLED(true)
///     for await change in dongle.changes { if case .button(let pressed) = change { print(pressed) } }
///
/// Threading contract: an actor; any task. ``changes`` has one consumer; the transport's delivery thread only
/// yields to it.
public actor NordicDongleClient {
    /// The link to the dongle.
    public nonisolated let transport: any DeviceTransport
    /// The characteristics this client reads and subscribes to.
    public nonisolated let watched: Set<NordicDongleCharacteristic>
    /// Notified changes of the watched battery and button, decoded; one consumer.
    public nonisolated let changes: AsyncStream<NordicDongleValue>
    /// Notifications that were not valid values (counted; the stream goes on).
    public var invalidNotifications: Int { receiver.invalid.withLock { $0 } }

    private let receiver: Receiver

    /// A client of the dongle behind `transport` that watches `watching` (the LED and the button by default).
    public init(
        transport: any DeviceTransport, watching: Set<NordicDongleCharacteristic> = [.led, .button]
    ) {
        self.transport = transport
        self.watched = watching
        let (stream, continuation) = AsyncStream.makeStream(of: NordicDongleValue.self, bufferingPolicy: .bufferingNewest(256))
        changes = stream
        receiver = Receiver(continuation)
    }

    /// Connects and subscribes to the watched characteristics that notify.
    ///
    /// - Throws: ``NordicDongleError/transport(_:)``: no dongle, or a device without the dongle's characteristics.
    public func open() async throws(NordicDongleError) {
        let subscribed = NordicDongleCharacteristic.allCases.filter { watched.contains($0) && $0.notifies }.map(\.id)
        do { try await transport.open(notifications: subscribed, receiver: receiver) } catch {
            throw .transport(error)
        }
    }

    /// Reads a watched characteristic.
    ///
    /// - Throws: ``NordicDongleError/notWatched(_:)`` before anything is sent; ``NordicDongleError/transport(_:)``;
    ///   ``NordicDongleError/invalidValue(_:_:)``.
    public func read(_ characteristic: NordicDongleCharacteristic) async throws(NordicDongleError) -> NordicDongleValue {
        guard watched.contains(characteristic) else { throw .notWatched(characteristic) }
        let bytes: [UInt8]
        do { bytes = try await transport.read(characteristic.id) } catch { throw .transport(error) }
        return try NordicDongleValue(decoding: bytes, of: characteristic)
    }

    /// Battery level in percent.
    public func battery() async throws(NordicDongleError) -> Int {
        guard case .battery(let level) = try await read(.battery) else { throw .invalidValue(.battery, []) }
        return level
    }

    /// Whether the LED is on.
    public func ledIsOn() async throws(NordicDongleError) -> Bool {
        guard case .led(let on) = try await read(.led) else { throw .invalidValue(.led, []) }
        return on
    }

    /// The dongle's name.
    public func name() async throws(NordicDongleError) -> String {
        guard case .name(let name) = try await read(.name) else { throw .invalidValue(.name, []) }
        return name
    }

    /// Whether the button is pressed down now.
    public func buttonIsPressed() async throws(NordicDongleError) -> Bool {
        guard case .button(let pressed) = try await read(.button) else { throw .invalidValue(.button, []) }
        return pressed
    }

    /// Switches the LED (written with response).
    ///
    /// - Throws: ``NordicDongleError/notWatched(_:)``, ``NordicDongleError/transport(_:)``.
    public func setLED(_ on: Bool) async throws(NordicDongleError) {
        guard watched.contains(.led) else { throw .notWatched(.led) }
        do { try await transport.write(NordicDongleValue.led(on).bytes, to: NordicDongleCharacteristic.led.id, withResponse: true) } catch {
            throw .transport(error)
        }
    }

    /// Disconnects; ``changes`` ends.
    public func close() async {
        await transport.close()
        receiver.continuation.finish()
    }

    /// Decodes notifications on the transport's delivery thread; never blocks.
    private final class Receiver: TransportReceiver, Sendable {
        let continuation: AsyncStream<NordicDongleValue>.Continuation
        let invalid = ThreadLocked(0)
        init(_ continuation: AsyncStream<NordicDongleValue>.Continuation) { self.continuation = continuation }
        func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
            guard let which = NordicDongleCharacteristic(characteristic) else { return }
            do { continuation.yield(try NordicDongleValue(decoding: value, of: which)) } catch {
                invalid.withLock { $0 += 1 }
            }
        }
        func transport(didChange event: LinkEvent) {}
    }
}
