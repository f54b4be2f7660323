import AxonEventStore
import AxonOBD
import AxonRecording
import Foundation
import StreamTestSupport
import Testing

@Suite("Event logging needs somewhere to keep the events")
struct EventLoggingRefusalTests {
    @Test("a gateway without an event log cannot log, nor be a logger's")
    func noEventLog() {
        let gateway = authenticatedGateway()
        #expect(throws: OBDGatewayError.noEventLog) { try gateway.startEventLogging() }
        #expect(throws: OBDGatewayError.noEventLog) {
            try OBDLogger(gateway: gateway, endpoint: .tcp(host: "127.0.0.1", port: 1))
        }
    }
}

extension EmulatorSuites {
    @Suite("Event logging: the preconfigured kinds, registered or not")
    struct EventLoggingTests {
        @Test("with nothing registered, an over-speed of the emulator's car is stored")
        func unregisteredKindIsLogged() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            try peer.setSpeed(100)
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("axon-obd-logging-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let log = try OBDEventLog(store: EventStore(path: path), sourceID: "car")
            let gateway = authenticatedGateway(eventLog: log)
            try gateway.connect(peer.endpoint)
            let logged = try gateway.startEventLogging()
            #expect(logged == Set(OBDEventKind.allCases), "the car reports engine speed: all eight")
            #expect(gateway.registeredEvents.isEmpty)
            // Over 120 km/h for more than 3 s (20 answers at 5 Hz), then back under the limit.
            let served = try peer.servedSpeeds()
            try peer.setSpeed(130)
            try #require(waitUntil(seconds: 30, interval: 0.05) { (try? peer.servedSpeeds()) ?? 0 >= served + 20 })
            try peer.setSpeed(110)
            try #require(
                waitUntil(seconds: 20, interval: 0.05) {
                    ((try? log.allEvents()) ?? []).contains { $0.event.kind == .overSpeed }
                })
            let overSpeed = try #require(try log.allEvents().first { $0.event.kind == .overSpeed })
            #expect(overSpeed.event.value == 130)
            #expect(overSpeed.event.endTime - overSpeed.event.startTime >= 3)
            gateway.stopEventLogging()
            #expect(gateway.loggedEvents.isEmpty)
            gateway.disconnect()
        }
    }
}
