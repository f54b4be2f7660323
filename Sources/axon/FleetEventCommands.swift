import ArgumentParser
import AxonFleet
import Foundation

/// `axon fleet event`: publishes one irregular event of a sensor on `axon.events.<sensor>`.
struct FleetEventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Publish one event of a sensor (its own id de-duplicates a retry) on axon.events.<sensor>.")

    @Option(help: "The sensor (1–64 characters of A–Z a–z 0–9 - _).")
    var sensor: String

    @Option(help: "The event's id, unique per sensor (1–128 characters of A–Z a–z 0–9 - _ . :).")
    var id: String

    @Option(help: "What happened (button, overSpeed, electrodeOff, …).")
    var kind: String

    @Option(help: "When it happened, Unix seconds (default: now).")
    var time: Double?

    @Option(name: .customLong("field"), help: "A detail as key=value (repeatable).")
    var fields: [String] = []

    @OptionGroup var connection: FleetConnectionOptions

    func event() throws -> FleetEvent {
        var details: [String: String] = [:]
        for field in fields {
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
                throw ValidationError("--field takes key=value, not \"\(field)\"")
            }
            details[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        let event = FleetEvent(
            sensor: sensor, id: id, time: time ?? Date().timeIntervalSince1970, kind: kind, fields: details)
        do { try FleetEvents.validate(event) } catch { throw ValidationError("\(error)") }
        return event
    }

    func validate() throws { _ = try event() }

    func run() throws {
        let event = try event()
        let nats = try connection.connect(name: "axon-event")
        try FleetSubjects.ensure(on: nats, replicas: connection.replicas)
        let ack = try FleetEvents.publish(event, nats: nats)
        print(ack.duplicate
            ? "axon fleet event \(event.messageID): already stored (a repeated id is not stored twice)"
            : "axon fleet event \(event.messageID): stored as \(FleetSubjects.eventsStream) #\(ack.sequence)")
    }
}

/// `axon fleet events`: the events stored, of one sensor or all.
struct FleetEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "List the events stored on axon.events.> (of one sensor or all).")

    @Option(help: "Only this sensor's events.")
    var sensor: String?

    @Flag(help: "One JSON document instead of lines.")
    var json = false

    @OptionGroup var connection: FleetConnectionOptions

    func run() throws {
        let nats = try connection.connect(name: "axon-events")
        let events = try FleetEvents.read(nats: nats, sensor: sensor)
        if json { return try printFleetJSON(events) }
        for event in events {
            let details = event.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            print("\(fmt(event.time, 3)) \(event.sensor) \(event.id) \(event.kind)\(details.isEmpty ? "" : " " + details)")
        }
        print("axon fleet events: \(events.count) events")
    }
}
