import AxonEventStore
import AxonOBD
import AxonRecording
import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EmulatorSuites {
    /// The datalogger as a process of its own: `axon obd log` against the emulator while the test drives the car's
    /// speed, SIGKILLed twice during the drive and started again each time, and gpsd replaying an NMEA log; an
    /// application that connects later gets every event of the drive exactly once, with the GPS messages.
    @Suite(
        "axon obd log: every event of a drive, across two SIGKILLs, delivered once",
        .enabled(if: GPSReplayPeer.available))
    struct LoggerKillTests {
        /// The drive: each step a speed change of 40 km/h or more from one answer to the next, held until the
        /// detector has seen over a second of the new speed — one hard event per step.
        static let steps = [60, 20, 90, 30, 70, 0]
        /// After these steps (0-based) the logger is SIGKILLed and started again; after the first, the dongle is away
        /// too when it starts, and comes back while it waits.
        static let killsAfter: Set<Int> = [1, 3]
        /// After this step the dongle drops under the running logger (the emulator SIGKILLed and started again).
        static let dongleDropAfter = 4

        @Test(
            "SIGKILL twice mid-drive: each hard event stored once, delivered once in acknowledged batches with gpsd's fixes"
        )
        func driveAcrossKills() throws {
            let axon = try #require(AxonExecutable.path, "the axon executable is not built")
            // 79 s without a repeat: every batch gets GPS messages of its own (a looped log's repeats are stored once).
            let nmea = GPSReplayPeer.fixture("long-drive.nmea")
            let facts = try NMEALogFacts(path: nmea)
            let gps = try GPSReplayPeer(log: nmea)
            defer { gps.stop() }
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            try peer.setSpeed(0)
            guard case .tcp(_, let port) = peer.endpoint else { return }
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("axon-obd-log-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let arguments = [
                "obd", "log", "--tcp", "127.0.0.1:\(port)", "--store", path, "--source", "car", "--gpsd",
                "127.0.0.1:\(gps.port)",
            ]
            let log = try OBDEventLog(store: EventStore(path: path), sourceID: "car")

            var logger = try LoggerProcess(axon, arguments)
            var outputs: [String] = []
            var killed: [Process.TerminationReason] = []
            var early: [OBDEventBatch] = []
            for (index, target) in Self.steps.enumerated() {
                // Cruise: more than a second of answers at the current speed reach the (new) logger first.
                let served = try peer.servedSpeeds()
                try #require(
                    try waitUntil(seconds: 20, interval: 0.05) { try peer.servedSpeeds() >= served + 8 },
                    "the logger polls speed: \(logger.output)")
                try peer.setSpeed(target)
                try #require(
                    try waitUntil(seconds: 20, interval: 0.05) { try log.allEvents().count >= index + 1 },
                    "event \(index + 1) stored: \(logger.output)")
                if index == Self.dongleDropAfter {
                    try peer.kill()
                    try peer.start()
                }
                guard Self.killsAfter.contains(index) else { continue }
                let (reason, output) = logger.kill()
                killed.append(reason)
                outputs.append(output)
                guard early.isEmpty else {
                    logger = try LoggerProcess(axon, arguments)
                    continue
                }
                // An application reads while the logger is down: the events so far, in one batch, acknowledged.
                let run = try AxonExecutable.run(
                    axon, ["obd", "events", "--store", path, "--source", "car", "--json", "--ack"])
                #expect(run.status == 0, "\(run.output)")
                early = try Self.batches(fromJSON: run.output)
                // The dongle is away when the logger starts again: it keeps trying until the dongle answers.
                try peer.kill()
                logger = try LoggerProcess(axon, arguments)
                try #require(
                    waitUntil(seconds: 20, interval: 0.05) {
                        logger.output.contains("status: reconnection attempt 1 failed")
                    },
                    "\(logger.output)")
                try peer.start()
            }
            let (lastReason, lastOutput) = logger.terminate()
            outputs.append(lastOutput)
            #expect(killed == [.uncaughtSignal, .uncaughtSignal])
            #expect(lastReason == .exit && logger.status == 0, "SIGTERM ends the logger cleanly: \(lastOutput)")
            #expect(outputs.allSatisfy { $0.contains("axon obd log: ") && $0.contains("logging hardBraking") })
            #expect(lastOutput.contains("logged: hardBraking@"), "each logger prints what it stores: \(lastOutput)")
            // The last logger saw the dongle drop and reconnected to it by itself.
            #expect(
                lastOutput.contains("status: link lost")
                    && lastOutput.components(separatedBy: "status: connected").count == 3)

            // The application connects after the drive (the library this time): the rest, then nothing.
            let application = authenticatedGateway(
                eventLog: try OBDEventLog(store: EventStore(path: path), sourceID: "car"))
            application.setAutoAcknowledgement(false)
            let late = application.deliverPendingBatches()
            for batch in late { try application.acknowledge(batch.acknowledgementID) }
            #expect(application.deliverPendingBatches().isEmpty, "acknowledged batches never again")
            let after = try AxonExecutable.run(
                axon, ["obd", "events", "--store", path, "--source", "car", "--json"])
            #expect(after.status == 0)
            #expect(after.output.contains("\"batches\":[]"), "\(after.output)")

            let delivered = early + late
            #expect(early.count == 1 && late.count == 1, "\(delivered.map(\.acknowledgementID))")
            #expect(Set(delivered.map(\.acknowledgementID)).count == delivered.count)
            let events = delivered.flatMap(\.events)
            let expected = zip([0] + Self.steps.dropLast(), Self.steps).map { from, to in
                "\(to > from ? OBDEventKind.hardAcceleration : .hardBraking) \(from)→\(to)"
            }
            let received = events.map { "\($0.event.kind) \(Int($0.event.startSpeedKmh))→\(Int($0.event.endSpeedKmh))" }
            #expect(received == expected, "every event of the drive, once, in order: \(outputs)")
            #expect(Set(events.map(\.id)).count == events.count)
            #expect(early.first?.events.count == 2, "the events before the first kill in the first batch")
            #expect(try log.allEvents().count == Self.steps.count, "nothing stored twice by a restarted logger")
            for stored in events {
                let position = try #require(stored.event.position, "\(stored.id) has gpsd's fix")
                let fix = try #require(facts.fixes[position.time], "\(position.time) is a fix of the replayed log")
                #expect(abs(fix.latitude - position.latitude) < 1e-7 && abs(fix.longitude - position.longitude) < 1e-7)
            }
            // The GPS messages themselves, in the batches, each once.
            let messages = delivered.flatMap(\.gps)
            #expect(Set(messages.map(\.id)).count == messages.count)
            for batch in delivered {
                let fixes = batch.gps.compactMap { if case .fix(let fix) = $0.report { fix } else { nil } }
                let skies = batch.gps.compactMap { if case .satellites(let sky) = $0.report { sky } else { nil } }
                #expect(
                    !fixes.isEmpty && !skies.isEmpty, "\(batch.acknowledgementID) carries fixes and satellite counts")
                for fix in fixes {
                    let expected = try #require(facts.fixes[fix.time])
                    #expect(
                        abs(fix.latitude - expected.latitude) < 1e-7 && abs(fix.longitude - expected.longitude) < 1e-7)
                }
                let strange = skies.filter {
                    !facts.skies.contains(NMEALogFacts.Sky(time: $0.time ?? -1, seen: $0.seen, used: $0.used))
                }
                #expect(strange.isEmpty, "satellite counts the log does not have: \(strange)")
            }
            print(
                "axon obd log across 2 SIGKILLs: \(events.count) events in \(delivered.count) batches "
                    + "(\(delivered.map { "\($0.acknowledgementID): \($0.events.count) events, \($0.gps.count) GPS" })); "
                    + "\(peer.servedSpeedsOrZero) speed answers")
        }

        /// The batches of `axon obd events --json`, rebuilt as the library's values.
        static func batches(fromJSON output: String) throws -> [OBDEventBatch] {
            struct Output: Decodable {
                struct Event: Decodable {
                    var id: String
                    var kind: String
                    var startTime: Double
                    var endTime: Double
                    var startSpeedKmh: Double
                    var endSpeedKmh: Double
                    var peakRateMphPerSecond: Double
                    var value: Double?
                    var position: OBDPosition?
                }
                struct GPS: Decodable {
                    var id: String
                    var type: String
                    var time: Double?
                    var latitude: Double?
                    var longitude: Double?
                    var altitude: Double?
                    var speed: Double?
                    var track: Double?
                    var mode: Int?
                    var seen: Int?
                    var used: Int?
                }
                struct Batch: Decodable {
                    var acknowledgementID: String
                    var acknowledged: Bool
                    var events: [Event]
                    var gps: [GPS]
                }
                var batches: [Batch]
            }
            let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "\(output)")
            let decoded = try JSONDecoder().decode(Output.self, from: Data(line.utf8))
            return try decoded.batches.map { batch in
                #expect(batch.acknowledged)
                return OBDEventBatch(
                    acknowledgementID: batch.acknowledgementID,
                    events: try batch.events.map { event in
                        OBDStoredDrivingEvent(
                            id: event.id,
                            event: OBDDrivingEvent(
                                kind: try #require(OBDEventKind(rawValue: event.kind)), startTime: event.startTime,
                                endTime: event.endTime, startSpeedKmh: event.startSpeedKmh,
                                endSpeedKmh: event.endSpeedKmh, peakRateMphPerSecond: event.peakRateMphPerSecond,
                                position: event.position, value: event.value))
                    },
                    gps: try batch.gps.map { message in
                        if message.type == "fix" {
                            return OBDStoredGPSMessage(
                                id: message.id,
                                report: .fix(
                                    GPSFix(
                                        time: try #require(message.time), latitude: try #require(message.latitude),
                                        longitude: try #require(message.longitude), altitude: message.altitude,
                                        speed: message.speed, track: message.track, mode: try #require(message.mode))))
                        }
                        return OBDStoredGPSMessage(
                            id: message.id,
                            report: .satellites(
                                GPSSatellites(
                                    time: message.time, seen: try #require(message.seen),
                                    used: try #require(message.used))))
                    })
            }
        }
    }
}

/// `axon obd log` running, its output collected as it comes.
final class LoggerProcess: @unchecked Sendable {
    // Sendable invariant: `collected` is behind its lock; the process is used from the test's task only.
    private let process = Process()
    private let pipe = Pipe()
    private let collected = NSLock()
    private var text = ""

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.collected.lock()
            self.text += String(decoding: data, as: UTF8.self)
            self.collected.unlock()
        }
        try process.run()
    }

    deinit {
        if process.isRunning { _ = kill() }
    }

    /// The exit status or signal number, once it has ended.
    var status: Int32 { process.terminationStatus }

    /// What it printed so far.
    var output: String {
        collected.lock()
        defer { collected.unlock() }
        return text
    }

    /// SIGKILL: the process dies where it is. Returns how it ended and what it printed.
    func kill() -> (Process.TerminationReason, String) { end(SIGKILL) }

    /// SIGTERM: the logger stops cleanly.
    func terminate() -> (Process.TerminationReason, String) { end(SIGTERM) }

    private func end(_ signal: Int32) -> (Process.TerminationReason, String) {
        _ = Glibc.kill(process.processIdentifier, signal)
        process.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        let rest = pipe.fileHandleForReading.readDataToEndOfFile()
        collected.lock()
        text += String(decoding: rest, as: UTF8.self)
        collected.unlock()
        return (process.terminationReason, output)
    }
}

extension EmulatorPeer {
    /// ``servedSpeeds()``, or 0 when the keeper cannot say.
    var servedSpeedsOrZero: Int { (try? servedSpeeds()) ?? 0 }
}
