import AxonEventStore
import AxonOBD
import AxonRecording
import Foundation
import Testing

@Suite("Driving events: detection on a speed trace, durable batches with acknowledgement")
struct DrivingEventTests {
    @Test("the trace with two hard stops gives two hard-braking events with the right speeds, nothing else")
    func twoHardStops() throws {
        var detector = DrivingEventDetector()
        var events: [OBDDrivingEvent] = []
        for sample in try SpeedTrace.load() { events += detector.add(time: sample.time, speedKmh: sample.kmh) }
        if let last = detector.finish() { events.append(last) }
        for event in events {
            print(
                "OBD event \(event.kind): \(event.startSpeedKmh) → \(event.endSpeedKmh) km/h "
                    + String(
                        format: "(%.1f → %.1f mph), peak %.2f mph/s, %.1f–%.1f s", event.startSpeedMph,
                        event.endSpeedMph, event.peakRateMphPerSecond, event.startTime - SpeedTrace.epoch,
                        event.endTime - SpeedTrace.epoch))
        }
        try #require(events.count == 2)
        #expect(events.allSatisfy { $0.kind == .hardBraking })
        // First stop: 80 → 0 km/h at 20 km/h/s = 12.43 mph/s; second: 40 → 0 at 15 km/h/s = 9.32 mph/s.
        #expect(events[0].startSpeedKmh >= 76 && events[0].startSpeedKmh <= 80)
        #expect(events[0].endSpeedKmh == 0)
        #expect(abs(events[0].peakRateMphPerSecond - 20 / 1.609344) < 0.5)
        #expect(events[1].startSpeedKmh >= 37 && events[1].startSpeedKmh <= 40)
        #expect(events[1].endSpeedKmh == 0)
        #expect(abs(events[1].peakRateMphPerSecond - 15 / 1.609344) < 0.5)
        #expect(events[0].startTime - SpeedTrace.epoch >= 19.5 && events[0].startTime - SpeedTrace.epoch <= 21)
        #expect(events.allSatisfy { $0.position == nil })  // no GPS source configured
    }

    @Test("a hard acceleration and a gentle one; a hole in the samples ends an event")
    func accelerationAndGaps() {
        var detector = DrivingEventDetector()
        var events: [OBDDrivingEvent] = []
        // 0 → 50 km/h at 15 km/h/s (9.3 mph/s), then 50 → 80 at 4 km/h/s (2.5 mph/s).
        var time = 0.0
        var speed = 0.0
        while speed < 80 {
            events += detector.add(time: time, speedKmh: speed.rounded())
            speed += speed < 50 ? 3 : 0.8
            time += 0.2
        }
        events += detector.add(time: time + 5, speedKmh: 0)  // 5 s without samples, then standing: no braking
        if let last = detector.finish() { events.append(last) }
        #expect(events.count == 1)
        #expect(events.first?.kind == .hardAcceleration)
        #expect((events.first?.peakRateMphPerSecond ?? 0) > 7)
    }

    @Test("batches: same id until acknowledged, never again after; later events in the next batch")
    func batches() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-obd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try OBDEventLog(
            store: EventStore(path: folder.appendingPathComponent("events.sqlite").path), sourceID: "car")
        let first = OBDDrivingEvent(
            kind: .hardBraking, startTime: 100, endTime: 103, startSpeedKmh: 80, endSpeedKmh: 0,
            peakRateMphPerSecond: 12)
        let second = OBDDrivingEvent(
            kind: .hardAcceleration, startTime: 200, endTime: 202, startSpeedKmh: 0, endSpeedKmh: 40,
            peakRateMphPerSecond: 8)
        #expect(try log.record(first) == .inserted)
        #expect(try log.record(first) == .duplicate)
        #expect(try log.record(second) == .inserted)
        let batch = try #require(try log.nextBatch())
        #expect(batch.acknowledgementID == "batch-1")
        #expect(batch.events.map(\.event) == [first, second])
        #expect(try log.nextBatch() == batch)  // not acknowledged: delivered again, same id
        let third = OBDDrivingEvent(
            kind: .hardBraking, startTime: 300, endTime: 301, startSpeedKmh: 50, endSpeedKmh: 10,
            peakRateMphPerSecond: 9)
        try log.record(third)
        #expect(try log.nextBatch() == batch)  // the open batch first
        try log.acknowledge("batch-1")
        try log.acknowledge("batch-1")  // harmless
        let next = try #require(try log.nextBatch())
        #expect(next.acknowledgementID == "batch-2")
        #expect(next.events.map(\.event) == [third])
        try log.acknowledge("batch-2")
        #expect(try log.nextBatch() == nil)
        #expect(throws: OBDGatewayError.unknownBatch("batch-9")) { try log.acknowledge("batch-9") }
        #expect(try log.deliveredBatches().map(\.acknowledged) == [true, true])
    }

    @Test("the gateway delivers pending batches on connection: all with auto-ack, the oldest one without")
    func gatewayDelivery() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-obd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try OBDEventLog(
            store: EventStore(path: folder.appendingPathComponent("events.sqlite").path), sourceID: "car")
        var detector = DrivingEventDetector()
        for sample in try SpeedTrace.load() {
            for event in detector.add(time: sample.time, speedKmh: sample.kmh) { try log.record(event) }
        }
        let manual = authenticatedGateway(eventLog: log)
        manual.setAutoAcknowledgement(false)
        manual.deliverPendingBatches()
        manual.deliverPendingBatches()
        var iterator = manual.batches.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let again = try #require(await iterator.next())
        #expect(first == again)
        #expect(first.events.count == 2)
        try manual.acknowledge(first.acknowledgementID)
        #expect(manual.deliverPendingBatches().isEmpty)
        let later = OBDDrivingEvent(
            kind: .hardBraking, startTime: SpeedTrace.epoch + 500, endTime: SpeedTrace.epoch + 502, startSpeedKmh: 60,
            endSpeedKmh: 0, peakRateMphPerSecond: 10)
        try log.record(later)
        let automatic = authenticatedGateway(eventLog: log)
        let delivered = automatic.deliverPendingBatches()
        #expect(delivered.map(\.acknowledgementID) == ["batch-2"])
        #expect(delivered.first?.events.map(\.event) == [later])
        #expect(try log.nextBatch() == nil)  // auto-acknowledged
    }
}
