import AxonEventStore
import AxonOBD
import AxonRecording
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

@Suite("gpsd JSON: position reports")
struct GPSDReportTests {
    @Test("a TPV with a fix gives a position; no fix, other classes and garbage give none")
    func parse() throws {
        let tpv =
            #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-11-22T12:00:09.000Z","lat":48.11745,"#
            + #""lon":11.516666667,"alt":545.4}"#
        let position = try #require(GPSDClient.position(fromLine: Array(tpv.utf8)))
        #expect(position.latitude == 48.11745)
        #expect(position.longitude == 11.516666667)
        #expect(position.time == 1_795_348_809)  // 2026-11-22T12:00:09Z
        let noFix = #"{"class":"TPV","mode":1,"time":"2026-11-22T12:00:09.000Z"}"#
        #expect(GPSDClient.position(fromLine: Array(noFix.utf8)) == nil)
        let sky = #"{"class":"SKY","satellites":[]}"#
        #expect(GPSDClient.position(fromLine: Array(sky.utf8)) == nil)
        #expect(GPSDClient.position(fromLine: Array("not json {".utf8)) == nil)
    }
}

extension EmulatorSuites {
    @Suite(
        "OBD events from the emulator's speed, stamped by gpsd replaying an NMEA log",
        .enabled(if: GPSReplayPeer.available))
    struct PositionedEventTests {
        @Test("events carry the gpsd fix, are stored, and come back as a batch on the next connection")
        func positionedEvents() async throws {
            let gps = try GPSReplayPeer()
            defer { gps.stop() }
            let client = try GPSDClient(host: "127.0.0.1", port: gps.port)
            defer { client.stop() }
            guard try await waitUntil(seconds: 20, interval: 0.05, { client.latestPosition != nil }) else { return }

            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-obd-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let log = try OBDEventLog(
                store: EventStore(path: folder.appendingPathComponent("events.sqlite").path), sourceID: "car")
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = OBDGateway(
                validator: LocalKeyValidator(keys: ["k": "*"]), eventLog: log, positionSource: client)
            _ = gateway.authenticate(apiKey: "k", issuedTo: "axon-tests")
            try gateway.connect(peer.endpoint)
            #expect(throws: OBDGatewayError.invalidRegistration(reason: "an event appears twice")) {
                try gateway.registerEvents([.hardBraking, .hardBraking])
            }
            // The car scenario's recorded speeds jump by tens of km/h between answers: hard events within seconds.
            try gateway.registerEvents([.hardBraking, .hardAcceleration])
            var iterator = gateway.events.makeAsyncIterator()
            let event = try #require(await iterator.next())
            gateway.unregisterEvents([.hardBraking, .hardAcceleration])
            let position = try #require(event.position)
            let logStart = try Date("2026-11-22T12:00:00Z", strategy: .iso8601).timeIntervalSince1970
            print(
                "OBD event from the emulator: \(event.kind) \(event.startSpeedKmh) → \(event.endSpeedKmh) km/h, "
                    + "peak \(String(format: "%.1f", event.peakRateMphPerSecond)) mph/s at \(position.latitude), "
                    + "\(position.longitude), fix \(position.time - logStart) s into the NMEA log; "
                    + "\(client.fixCount) gpsd fixes read")
            #expect(event.peakRateMphPerSecond >= 7)
            #expect(position.latitude >= 48.1173 && position.latitude <= 48.1194)
            #expect(abs(position.longitude - (11 + 31.0 / 60)) < 1e-6)
            #expect(position.time - logStart >= 0 && position.time - logStart < 120)
            let stored = try log.allEvents()
            #expect(stored.contains { $0.id == event.recordID && $0.event.position == position })

            // The next connection delivers the stored events as a batch (auto-acknowledged).
            gateway.disconnect()
            try gateway.connect(peer.endpoint)
            var batches = gateway.batches.makeAsyncIterator()
            let batch = try #require(await batches.next())
            #expect(batch.events.contains { $0.id == event.recordID })
            #expect(try log.nextBatch() == nil)
        }
    }
}
