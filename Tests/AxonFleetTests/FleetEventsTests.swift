import Foundation
import StreamTestSupport
import Testing

@testable import AxonFleet

/// The events stream's producer against a real nats-server (one node on a free loopback port): events of two sensors
/// stored once each in order, a retry with the same id acknowledged as a duplicate and not stored again, a sensor's
/// own events read back, bad events refused before they reach the broker; and the same through `axon fleet event`
/// and `axon fleet events`.
@Suite(.serialized, .enabled(if: NATSCluster.available, "nats-server is installed by scripts/install-deps.sh --test"))
struct FleetEventsTests {
    @Test func publishedOnceAndReadBack() throws {
        let server = try NATSCluster(count: 1)
        let nats = try NATSConnection(.init(urls: server.urls, timeout: 2, reconnectForever: false))
        let events = [
            FleetEvent(sensor: "band-1", id: "1795000000.125", time: 1_795_000_000.125, kind: "button", fields: ["button": "2"]),
            FleetEvent(sensor: "car-7", id: "trip-3:17", time: 1_795_000_001.5, kind: "overSpeed", fields: ["kmh": "131"]),
            FleetEvent(sensor: "band-1", id: "1795000002.000", time: 1_795_000_002, kind: "electrodeOff"),
        ]
        var sequences: [UInt64] = []
        for event in events {
            let ack = try FleetEvents.publish(event, nats: nats)
            #expect(!ack.duplicate)
            sequences.append(ack.sequence)
        }
        #expect(sequences == [1, 2, 3])
        // A producer that did not hear the acknowledgement sends the same event again.
        let retry = try FleetEvents.publish(events[1], nats: nats)
        #expect(retry.duplicate && retry.sequence == 2)
        #expect(try FleetEvents.read(nats: nats) == events)
        #expect(try FleetEvents.read(nats: nats, sensor: "band-1") == [events[0], events[2]])
        #expect(try FleetEvents.read(nats: nats, sensor: "nobody").isEmpty)

        let bad = [
            FleetEvent(sensor: "band 1", id: "1", time: 0, kind: "button"),
            FleetEvent(sensor: "band-1", id: "two words", time: 0, kind: "button"),
            FleetEvent(sensor: "band-1", id: "", time: 0, kind: "button"),
            FleetEvent(sensor: "band-1", id: "9", time: .nan, kind: "button"),
            FleetEvent(sensor: "band-1", id: "9", time: 0, kind: ""),
        ]
        for event in bad {
            #expect(throws: FleetError.self) { try FleetEvents.publish(event, nats: nats) }
        }
        #expect(try nats.streamState(FleetSubjects.eventsStream).messages == 3)
    }

    @Test func commandLine() throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let server = try NATSCluster(count: 1)
        let connection = ["--replicas", "1", "--nats"] + server.urls
        let publish = ["fleet", "event", "--sensor", "band-1", "--id", "42", "--kind", "button", "--time", "1795000000.5",
                       "--field", "button=2", "--field", "held=long"] + connection
        let first = try AxonExecutable.run(axon, publish)
        #expect(first.status == 0 && first.output.contains("band-1.42: stored as AXON_EVENTS #1"), "\(first.output)")
        let again = try AxonExecutable.run(axon, publish)
        #expect(again.status == 0 && again.output.contains("already stored"), "\(again.output)")
        let refused = try AxonExecutable.run(axon, ["fleet", "event", "--sensor", "band-1", "--id", "4 2", "--kind", "x"] + connection)
        #expect(refused.status != 0 && refused.output.contains("event id \"4 2\" is not usable"), "\(refused.output)")

        let listed = try AxonExecutable.run(axon, ["fleet", "events", "--json", "--sensor", "band-1"] + connection)
        #expect(listed.status == 0, "\(listed.output)")
        let decoded = try JSONDecoder().decode([FleetEvent].self, from: Data(listed.output.utf8))
        #expect(decoded == [FleetEvent(sensor: "band-1", id: "42", time: 1_795_000_000.5, kind: "button",
                                       fields: ["button": "2", "held": "long"])])
    }
}
