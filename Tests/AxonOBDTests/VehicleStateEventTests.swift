import AxonOBD
import Testing

/// The vehicle-state events on synthetic traces at 5 Hz: over-speed, high RPM, long idle, engine start and stop,
/// a new trouble code — each at its documented threshold (docs/obd-events.md), none below it.
struct VehicleStateEventTests {
    /// Feeds (seconds, km/h, rpm) samples at 5 Hz from `segments` (each: duration, speed, rpm) and collects events.
    static func run(
        _ segments: [(seconds: Double, kmh: Double, rpm: Double)],
        configuration: VehicleStateDetector.Configuration = .init()
    ) -> [OBDDrivingEvent] {
        var detector = VehicleStateDetector(configuration: configuration)
        var events: [OBDDrivingEvent] = []
        var time = 1000.0
        for segment in segments {
            for _ in 0..<Int((segment.seconds * 5).rounded()) {
                events += detector.add(time: time, speedKmh: segment.kmh, rpm: segment.rpm)
                time += 0.2
            }
        }
        return events + detector.finish()
    }

    @Test func overSpeedLastsThreeSecondsAtLeast() {
        let events = Self.run([(5, 100, 2500), (4, 131, 3000), (5, 100, 2500), (2, 140, 3200), (5, 100, 2500)])
        let over = events.filter { $0.kind == .overSpeed }
        #expect(over.count == 1, "4 s over 120 km/h counts, 2 s does not")
        #expect(over.first?.value == 131 && abs((over.first.map { $0.endTime - $0.startTime } ?? 0) - 3.8) < 1e-6)
    }

    @Test func highRPMAndEngineStartStop() {
        let events = Self.run([(2, 0, 0), (3, 0, 800), (5, 60, 5000), (3, 60, 2000), (2, 0, 0)])
        #expect(events.map(\.kind) == [.engineStart, .highRPM, .engineStop])
        #expect(events[1].value == 5000)
        #expect(events[0].value == 800 && events[2].value == 0)
    }

    @Test func longIdleIsFiveMinutesAtAStandstillWithTheEngineRunning() {
        let short = Self.run([(2, 0, 800), (200, 0, 750), (5, 20, 1500)])
        #expect(!short.contains { $0.kind == .longIdle })
        let long = Self.run([(2, 0, 800), (310, 0, 750), (5, 20, 1500)])
        let idle = long.filter { $0.kind == .longIdle }
        #expect(idle.count == 1)
        #expect(abs((idle.first?.value ?? 0) - 311.8) < 1e-6)
    }

    @Test func aNewTroubleCodeIsARiseInTheCount() {
        var detector = VehicleStateDetector()
        #expect(detector.add(time: 1, troubleCodeCount: 1, speedKmh: 50).isEmpty, "the first count is the baseline")
        #expect(detector.add(time: 6, troubleCodeCount: 1, speedKmh: 50).isEmpty)
        let rise = detector.add(time: 11, troubleCodeCount: 3, speedKmh: 52)
        #expect(rise.map(\.kind) == [.newTroubleCode] && rise.first?.value == 3)
        #expect(detector.add(time: 16, troubleCodeCount: 0, speedKmh: 52).isEmpty, "cleared codes are no event")
    }

    /// A link loss (a hole over 2 s) drops what was in progress, and the reconnection is not an engine start.
    @Test func aHoleInTheSamplesIsNoEvent() {
        var detector = VehicleStateDetector()
        var events: [OBDDrivingEvent] = []
        for i in 0..<10 { events += detector.add(time: Double(i) * 0.2, speedKmh: 130, rpm: 3000) }
        for i in 0..<30 { events += detector.add(time: 10 + Double(i) * 0.2, speedKmh: 90, rpm: 2000) }
        #expect(events.isEmpty)
    }

    /// Eight kinds now, so the seed's limit of five registered at once is a real limit.
    @Test func theLimitOfFiveIsReal() {
        #expect(OBDEventKind.allCases.count == 8)
        #expect(OBDGateway.maximumRegisteredEvents == 5)
    }
}
