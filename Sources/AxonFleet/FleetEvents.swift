import Foundation

/// An irregular event of any sensor — a button pressed, a driving event, an electrode that came loose — as the fleet
/// carries it on `axon.events.<sensor>` (stream `AXON_EVENTS`).
///
/// The event's own `id` (unique per sensor: a counter, the sensor's timestamp, a UUID) makes its `Nats-Msg-Id`
/// `<sensor>.<id>`, so a producer that retries after a timeout never stores an event twice within the stream's
/// duplicate window (10 minutes).
///
/// Threading: a plain value, `Sendable`.
public struct FleetEvent: Sendable, Codable, Hashable {
    /// The sensor (a device id: 1–64 characters of `A–Z a–z 0–9 - _`).
    public var sensor: String
    /// The event's id, unique per sensor: 1–128 characters of `A–Z a–z 0–9 - _ . :`.
    public var id: String
    /// When it happened, Unix seconds (the sensor's clock when it has one).
    public var time: Double
    /// What happened ("button", "overSpeed", "electrodeOff", …).
    public var kind: String
    /// Its details as text.
    public var fields: [String: String]

    /// Creates an event.
    public init(sensor: String, id: String, time: Double, kind: String, fields: [String: String] = [:]) {
        self.sensor = sensor
        self.id = id
        self.time = time
        self.kind = kind
        self.fields = fields
    }

    /// The `Nats-Msg-Id`: `<sensor>.<id>`.
    public var messageID: String { "\(sensor).\(id)" }
}

/// Publishing and reading ``FleetEvent``s.
///
/// Threading: stateless; each call blocks its caller on the broker.
public enum FleetEvents {
    /// Headers every event message carries besides its JSON body.
    static let headerKeys = ["Axon-Sensor", "Axon-Event-Id", "Axon-Event-Kind"]

    /// Throws unless `event` can be published: a usable sensor id, an id of 1–128 characters of
    /// `A–Z a–z 0–9 - _ . :`, a kind of 1–64 characters and a finite time.
    public static func validate(_ event: FleetEvent) throws(FleetError) {
        try FleetSubjects.validate(deviceID: event.sensor)
        let idBytes = event.id.utf8
        guard (1...128).contains(idBytes.count),
            idBytes.allSatisfy({ byte in
                byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A || (0x30...0x39).contains(byte)
                    || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            })
        else { throw .invalidOption("event id \"\(event.id)\" is not usable: 1–128 characters of A–Z a–z 0–9 - _ . :") }
        guard (1...64).contains(event.kind.count), !event.kind.contains(where: \.isNewline) else {
            throw .invalidOption("event kind must be 1–64 characters on one line")
        }
        guard event.time.isFinite else { throw .invalidOption("event time must be finite") }
    }

    /// Publishes `event` on `axon.events.<sensor>` and waits for the stream's acknowledgement.
    ///
    /// - Returns: the acknowledgement; `duplicate` when the stream already had this event (a retry).
    /// - Throws: ``FleetError/invalidOption(_:)`` or ``FleetError/invalidDeviceID(_:)`` for an event that cannot be
    ///   published, ``FleetError/nats(_:)`` when the broker does not acknowledge (retry with the same event).
    @discardableResult
    public static func publish(_ event: FleetEvent, nats: NATSConnection, timeout: Double? = nil) throws(FleetError)
        -> NATSConnection.PublishAck
    {
        try validate(event)
        let body: Data
        do { body = try FleetJSON.encoder().encode(event) } catch { throw .json("event does not encode", cause: error) }
        do {
            return try nats.publish(
                subject: FleetSubjects.events(event.sensor), data: Array(body),
                headers: ["Axon-Sensor": event.sensor, "Axon-Event-Id": event.id, "Axon-Event-Kind": event.kind],
                messageID: event.messageID, timeout: timeout)
        } catch { throw .nats(error) }
    }

    /// Every event stored now, in stream order, of one sensor or of all.
    ///
    /// - Throws: ``FleetError/nats(_:)`` when the stream cannot be read; ``FleetError/badMessage(_:)`` for a stored
    ///   message that is not an event.
    /// - Complexity: reads the whole stream (JetStream 2.9 filters a consumer on one subject; the sensor filter is
    ///   applied here, as `axon fleet results` does).
    public static func read(nats: NATSConnection, sensor: String? = nil) throws(FleetError) -> [FleetEvent] {
        var events: [FleetEvent] = []
        do {
            let last = try nats.streamState(FleetSubjects.eventsStream).lastSequence
            guard last > 0 else { return [] }
            let subscription = try nats.subscribeOrderedSync(
                stream: FleetSubjects.eventsStream, subject: "axon.events.>", startSequence: 1)
            defer { subscription.unsubscribe() }
            var idle = 0.0
            while idle < 5 {
                guard let message = try subscription.next(timeout: 0.5, headerKeys: headerKeys) else {
                    idle += 0.5
                    continue
                }
                idle = 0
                if message.streamSequence >= last { idle = .infinity }
                if let sensor, message.headers["Axon-Sensor"] != sensor { continue }
                guard let event = try? FleetJSON.decoder().decode(FleetEvent.self, from: Data(message.data)) else {
                    throw FleetError.badMessage("\(message.subject) #\(message.streamSequence) is not an event")
                }
                events.append(event)
            }
        } catch {
            throw FleetError.wrapping(error, decoding: "event does not decode")
        }
        return events
    }
}
