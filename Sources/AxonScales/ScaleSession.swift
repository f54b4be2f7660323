import AxonDevices
import AxonStreams

/// One scale over any ``AxonDevices/DeviceTransport`` — BlueZ for a real or mock scale, ``SimulatedScale`` in
/// tests — with the iHealth SDK's semantics: user validation, measurement (unstable, stable, impedance weight,
/// body composition), memory transfer into the event store, HS5 users, HS3 Bluetooth on/off, the seed's errors.
///
/// The simulated HS3/HS4/HS5 speak Axon's framing (docs/scale-protocol.md); a ``ScaleModel/standard`` scale is
/// read through the Bluetooth SIG Weight Scale and Body Composition services, whose stable weights feed the same
/// events and, when a record store is given, the same event store. A real HS3 is read over its serial port
/// (``ScaleWire/hs3SerialPort``, a ``AxonDevices/ByteStreamTransport``): its weights, a repeat within 60 s taken
/// once, feed the same events and event store.
///
///     let session = ScaleSession(transport: SimulatedScale(.init(model: .hs5)), model: .hs5)
///     try await session.connect()
///     _ = try await session.validate(ScaleUserCredentials(userID: "ana@example.org"))
///     let result = try await session.measure(unit: .kg)
///     print(result.displayed)            // "71.4 kg"
///
/// Threading contract: `Sendable`. Commands (`connect`, `validate`, `measure`, `transferMemory`, the user calls)
/// are async and must run one at a time — a session is one conversation with one scale; ``events`` has one
/// consumer. Decoding runs on the transport's delivery thread.
public final class ScaleSession: Sendable {
    /// The link to the scale.
    public let transport: any DeviceTransport
    /// The scale's model.
    public let model: ScaleModel
    /// What the session speaks to the scale.
    public let wire: ScaleWire
    /// Names the device in record ids (`<device>/<time>`).
    public let device: String
    /// Live weights, body composition, stored records, errors and link events. One consumer.
    public let events: AsyncStream<ScaleEvent>
    /// Seconds to wait for each answer of the scale.
    public let responseTimeout: Double
    /// Seconds a memory transfer waits for the link to come back after a loss.
    public let reconnectTimeout: Double
    /// Seconds within which an HS3's equal serial-port weight is a repeat, not a new measurement.
    public let repeatWindow: Double

    let eventContinuation: AsyncStream<ScaleEvent>.Continuation
    let inbox = ScaleInbox()
    let validator: any UserValidator
    let recordStore: ScaleRecordStore?
    /// Told every link event on the transport's delivery thread (``ScaleController`` keeps its list with it).
    let linkObserver: (@Sendable (LinkEvent) -> Void)?
    let state = ThreadLocked(SessionState())
    /// The HS3 serial stream's counters, copied by the receiver after each read.
    let serialStatistics = ThreadLocked(HS3SerialStatistics())

    struct SessionState {
        var firmware: FirmwareVersion?
        var validation: UserValidationResult?
        var serialNumber: UInt32?
    }

    /// - Parameters:
    ///   - wire: what the scale speaks; by default ``ScaleWire/default(for:)``. ``ScaleWire/hs3SerialPort`` needs
    ///     model ``ScaleModel/hs3``.
    ///   - recordStore: where a standard scale's timestamped weights and an HS3's serial-port weights are stored
    ///     (memory transfers take theirs as an argument).
    ///   - repeatWindow: seconds within which an HS3's equal serial-port weight is a repeat (openScale: 60).
    ///   - linkObserver: told every link event too (besides ``events``), on the transport's delivery thread; it must
    ///     not block.
    public init(
        transport: any DeviceTransport, model: ScaleModel, wire: ScaleWire? = nil, device: String? = nil,
        validator: any UserValidator = LocalUserValidator(), recordStore: ScaleRecordStore? = nil,
        responseTimeout: Double = 5, reconnectTimeout: Double = 30, repeatWindow: Double = 60,
        linkObserver: (@Sendable (LinkEvent) -> Void)? = nil
    ) {
        precondition(wire != .hs3SerialPort || model == .hs3, "the serial-port wire is the HS3's")
        self.transport = transport
        self.model = model
        self.wire = wire ?? .default(for: model)
        self.repeatWindow = repeatWindow
        self.device = device ?? transport.deviceDescription
        self.validator = validator
        self.recordStore = recordStore
        self.responseTimeout = responseTimeout
        self.reconnectTimeout = reconnectTimeout
        self.linkObserver = linkObserver
        (events, eventContinuation) = AsyncStream.makeStream(
            of: ScaleEvent.self, bufferingPolicy: .bufferingNewest(4096))
    }

    /// The firmware the scale reported on ``connect()`` (`nil` for a standard scale).
    public var firmware: FirmwareVersion? { state.withLock { $0.firmware } }
    /// The last validation result.
    public var validation: UserValidationResult? { state.withLock { $0.validation } }
    /// The current user's serial number (seed `currentUserSerialNub`), set by ``validate(_:)``.
    public var currentUserSerialNumber: UInt32? { state.withLock { $0.serialNumber } }
    /// What an HS3's serial stream carried so far: packets, skipped bytes, repeats (zeros for other wires).
    public var hs3SerialStatistics: HS3SerialStatistics { serialStatistics.withLock { $0 } }

    /// Opens the link and, for an iHealth model over Axon's framing, asks the scale for its model and firmware.
    /// Over an HS3's serial port the repeat rule starts from the newest weight in the record store, so a scale
    /// still repeating it after a restart does not store it twice.
    ///
    /// - Throws: ``ScaleError/transport(_:)``, ``ScaleError/noResponse(command:seconds:)``,
    ///   ``ScaleError/invalidArgument(_:)`` when the scale is another model than the session's,
    ///   ``ScaleError/store(_:)`` when the record store cannot be read.
    public func connect() async throws(ScaleError) {
        let notifications: [GATTCharacteristicID]
        var serial: HS3SerialReading?
        switch wire {
        case .standardGATT: notifications = [ScaleGATT.weightMeasurement, ScaleGATT.bodyCompositionMeasurement]
        case .axonFraming: notifications = [ScaleGATT.response]
        case .hs3SerialPort:
            notifications = [ByteStreamTransport.stream]
            // Oldest first by time, then by insertion: the last is the weight taken last.
            let newest = try recordStore?.records().last
            serial = HS3SerialReading(
                rule: HS3RepeatRule(
                    window: repeatWindow,
                    last: newest.map { (Int(($0.weightKg * 10).rounded()), Double($0.time)) }),
                statistics: serialStatistics)
        }
        let receiver = ScaleReceiver(
            inbox: inbox, events: eventContinuation, recordStore: recordStore, serial: serial,
            linkObserver: linkObserver)
        do throws(TransportError) {
            try await transport.open(notifications: notifications, receiver: receiver)
        } catch {
            throw .transport(error)
        }
        guard wire == .axonFraming else { return }
        let (reported, firmware) = try await exchange(.identify) { item -> (ScaleModel, FirmwareVersion)? in
            if case .response(.info(let model, let firmware)) = item { return (model, firmware) }
            return nil
        }
        guard reported == model else {
            throw .invalidArgument("the device is an \(reported), not an \(model)")
        }
        state.withLock { $0.firmware = firmware }
    }

    /// Validates `user` with the session's validator and tells the scale the result (seed "Authentication").
    /// A trial success does not count for an HS5 (seed §5.1).
    ///
    /// - Throws: ``ScaleError/validationFailed(_:)`` with the failing result; link errors.
    @discardableResult
    public func validate(_ user: ScaleUserCredentials) async throws(ScaleError) -> UserValidationResult {
        let result = await validator.validate(user, model: model)
        guard result.permitsMeasurement, !(model == .hs5 && result == .trySuccess) else {
            throw .validationFailed(result)
        }
        if wire == .axonFraming { _ = try await command(.authorise(result)) }
        state.withLock {
            $0.validation = result
            $0.serialNumber = HS5User.serialNumber(forUserID: user.userID)
        }
        return result
    }

    /// Closes the link and ends ``events``.
    public func close() async {
        await transport.close()
        eventContinuation.finish()
    }

    // MARK: - Exchanges

    /// Writes `command` and waits for the first inbox item `match` accepts. An error frame throws its error.
    func exchange<T>(
        _ command: ScaleCommand, _ match: (ScaleInboxItem) -> T?
    ) async throws(ScaleError) -> T {
        inbox.clear()
        try await send(command)
        while true {
            guard let item = await inbox.next(within: responseTimeout) else {
                throw .noResponse(command: command.name, seconds: responseTimeout)
            }
            if case .response(.error(let code, let detail, let argument)) = item {
                throw error(code: code, detail: detail, argument: argument)
            }
            if let value = match(item) { return value }
        }
    }

    /// Writes `command` and waits for its result frame: `true` for success, `false` for a refusal.
    func command(_ command: ScaleCommand) async throws(ScaleError) -> Bool {
        try await exchange(command) { item -> Bool? in
            if case .response(.result(let type, let success)) = item, type == command.type { return success }
            return nil
        }
    }

    func send(_ command: ScaleCommand) async throws(ScaleError) {
        do throws(TransportError) {
            try await transport.write(command.bytes, to: ScaleGATT.command, withResponse: true)
        } catch {
            throw .transport(error)
        }
    }

    /// The typed error for an error frame.
    func error(code: Int, detail: UInt8, argument: UInt32) -> ScaleError {
        switch detail {
        case 1: return .userRule(.full)
        case 2: return .userRule(.positionOccupied(Int(argument)))
        case 3: return .userRule(.positionOutOfRange(Int(argument)))
        case 4: return .userRule(.unknownUser(argument))
        case 5: return .userRule(.alreadyExists(argument))
        case 6: return .userRule(.positionUsedBefore(Int(argument)))
        default:
            guard let known = ScaleDeviceError(model: model, code: code) else {
                return .malformed(what: "scale frame", problem: .outOfRange("error code \(code) for an \(model)"))
            }
            return .device(known)
        }
    }

    func requireModel(_ allowed: Set<ScaleModel>, _ operation: String) throws(ScaleError) {
        guard allowed.contains(model) else { throw .unsupported(model: model, operation: operation) }
        guard wire != .hs3SerialPort else {
            throw .unsupported(model: model, operation: "\(operation) over its serial port (it takes no commands)")
        }
    }
}
