import AxonEventStore
import AxonOBD
import AxonRecording
import AxonStreams
import Dispatch
import Foundation
import StreamTestSupport
import Testing

/// What an NMEA log says, read by the test itself: per receiver cycle with a fix (RMC status `A`) its time, position,
/// speed, track and GGA altitude, and per cycle with satellites the GSV count in view and the GSA count used.
struct NMEALogFacts {
    struct Fix: Equatable {
        var time: Double
        var latitude: Double
        var longitude: Double
        var speedKnots: Double
        var track: Double
        var altitude: Double?
    }

    struct Sky: Hashable, Comparable {
        var time: Double
        var seen: Int
        var used: Int
        static func < (a: Sky, b: Sky) -> Bool { (a.time, a.seen, a.used) < (b.time, b.seen, b.used) }
    }

    var fixes: [Double: Fix] = [:]
    var skies: Set<Sky> = []
    var cyclesWithoutFix = 0

    init(path: String) throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        var cycleTime: Double?
        var used: Int?
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where line.hasPrefix("$") {
            let body = line.dropFirst().split(separator: "*", maxSplits: 1)[0]
            let fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            func degrees(_ text: String, _ hemisphere: String, _ degreeDigits: Int) -> Double {
                let value = Double(text.dropFirst(degreeDigits))! / 60 + Double(text.prefix(degreeDigits))!
                return hemisphere == "S" || hemisphere == "W" ? -value : value
            }
            switch fields[0] {
            case "GPRMC":
                let clock = fields[1]
                let date = fields[9]
                let components = DateComponents(
                    year: 2000 + Int(date.suffix(2))!, month: Int(date.dropFirst(2).prefix(2))!,
                    day: Int(date.prefix(2))!, hour: Int(clock.prefix(2))!, minute: Int(clock.dropFirst(2).prefix(2))!,
                    second: Int(clock.dropFirst(4).prefix(2))!)
                let time = utc.date(from: components)!.timeIntervalSince1970
                cycleTime = time
                used = nil
                guard fields[2] == "A" else {
                    cyclesWithoutFix += 1
                    continue
                }
                fixes[time] = Fix(
                    time: time, latitude: degrees(fields[3], fields[4], 2), longitude: degrees(fields[5], fields[6], 3),
                    speedKnots: Double(fields[7])!, track: Double(fields[8])!, altitude: nil)
            case "GPGGA":
                if let time = cycleTime, let altitude = Double(fields[9]) { fixes[time]?.altitude = altitude }
            case "GPGSA":
                used = fields[3...14].filter { !$0.isEmpty }.count
            case "GPGSV":
                // The last sentence of a GSV group closes the cycle's sky.
                if fields[1] == fields[2], let time = cycleTime, let used, let seen = Int(fields[3]) {
                    skies.insert(Sky(time: time, seen: seen, used: used))
                }
            default:
                continue
            }
        }
    }
}

extension EmulatorSuites {
    @Suite("GPS fixes and satellites as streams of their own, from gpsd replaying an NMEA log",
        .enabled(if: GPSReplayPeer.available))
    struct GPSStreamTests {
        @Test("every fix and satellite count of the log arrives as a sample, with units, and is stored once")
        func fixesAndSatellites() async throws {
            let logPath = GPSReplayPeer.fixture("sky.nmea")
            let facts = try NMEALogFacts(path: logPath)
            try #require(facts.fixes.count >= 10 && facts.skies.count >= 10 && facts.cyclesWithoutFix >= 1)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-gps-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try EventStore(path: folder.appendingPathComponent("events.sqlite").path)
            let log = try OBDEventLog(store: store, sourceID: "car")

            let gps = try GPSReplayPeer(log: logPath)
            defer { gps.stop() }
            let client = try GPSDClient(host: "127.0.0.1", port: gps.port, log: log)
            #expect(client.fixDescriptor.nominalRate == 0 && client.fixDescriptor.contentType == .gps)
            #expect(client.fixDescriptor.channels.map(\.unit) == ["s", "deg", "deg", "m", "m/s", "deg", ""])
            #expect(client.satellitesDescriptor.channels.map(\.label) == ["seen", "used"])
            #expect(client.satellitesDescriptor.nominalRate == 0)

            // The log loops: read until every cycle has been seen (the 3D fix of each, its sky), 60 s at most.
            let watchdog = DispatchWorkItem { client.stop() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
            let collected = await Self.collect(from: client, until: facts)
            watchdog.cancel()
            client.stop()

            let fixes = collected.fixes
            #expect(Set(fixes.map(\.payload.time)) == Set(facts.fixes.keys), "fixes: one per cycle with a fix, no other")
            for sample in fixes {
                let fix = sample.payload
                guard let expected = facts.fixes[fix.time] else { continue }
                #expect(sample.deviceTime == fix.time)
                #expect(abs(fix.latitude - expected.latitude) < 1e-7 && abs(fix.longitude - expected.longitude) < 1e-7)
                #expect(abs(try #require(fix.speed) - expected.speedKnots * 1852 / 3600) < 1e-3)
                #expect(abs(try #require(fix.track) - expected.track) < 1e-6)
                if fix.mode == 3 { #expect(fix.altitude.map { abs($0 - expected.altitude!) < 1e-6 } == true) }
            }
            let skies = collected.satellites.map {
                NMEALogFacts.Sky(time: $0.payload.time ?? -1, seen: $0.payload.seen, used: $0.payload.used)
            }
            #expect(Set(skies) == facts.skies, "satellites seen and used per cycle, as GSV and GSA say")
            // Each stream numbers its samples from 0 without a gap.
            #expect(fixes.map(\.counter) == (0..<UInt64(fixes.count)).map { $0 })
            #expect(collected.satellites.map(\.counter) == (0..<UInt64(collected.satellites.count)).map { $0 })

            // Stored once each, however often gpsd repeated a cycle's report or the log started over.
            let storedFixes = try log.gpsFixes().filter { $0.mode == 3 }
            #expect(storedFixes.count == facts.fixes.count)
            #expect(Set(storedFixes.map(\.time)) == Set(facts.fixes.keys))
            let storedSkies = try log.gpsSatellites().map {
                NMEALogFacts.Sky(time: $0.time ?? -1, seen: $0.seen, used: $0.used)
            }
            #expect(storedSkies.sorted() == facts.skies.sorted())
            #expect(client.storeFailures.count == 0)
            let streams = try store.streams().filter { $0.descriptor.sourceID == "car" }
            let stored = try #require(streams.first { $0.descriptor.name == "GPS fixes" })
            #expect(stored.descriptor.channels.map(\.unit) == client.fixDescriptor.channels.map(\.unit))
            print(
                "GPS streams from gpsd: \(fixes.count) fixes (\(facts.fixes.count) cycles with a fix in the log), "
                    + "\(skies.count) satellite reports (\(facts.skies.count) in the log); stored \(storedFixes.count) "
                    + "3D fixes, \(storedSkies.count) satellite counts")
        }

        @Test("axon obd watch --gpsd prints the fixes and satellite counts and keeps them in --store")
        func watchShowsAndStoresGPS() async throws {
            let axon = try #require(AxonExecutable.path, "the axon executable is not built")
            let logPath = GPSReplayPeer.fixture("sky.nmea")
            let facts = try NMEALogFacts(path: logPath)
            let gps = try GPSReplayPeer(log: logPath)
            defer { gps.stop() }
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            guard case .tcp(_, let port) = peer.endpoint else { return }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-gps-\(UUID().uuidString).sqlite")
                .path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let run = try await AxonExecutable.runOffPool(
                axon,
                [
                    "obd", "watch", "speed", "--tcp", "127.0.0.1:\(port)", "--gpsd", "127.0.0.1:\(gps.port)", "--store",
                    path, "--source", "car", "--seconds", "4", "--rate", "2",
                ])
            #expect(run.status == 0, "\(run.output)")
            let lines = run.output.split(separator: "\n")
            // "gps: satellites 8 seen, 5 used": every printed count is one of the log's cycles.
            let printed = lines.filter { $0.hasPrefix("gps: satellites ") }.map { line -> [Int] in
                line.split(separator: " ").compactMap { Int($0) }
            }
            let counts = Set(facts.skies.map { [$0.seen, $0.used] })
            #expect(!printed.isEmpty && printed.allSatisfy(counts.contains), "\(run.output)")
            #expect(lines.contains { $0.hasPrefix("gps: fix 3D 2026-11-22T12:00:") }, "\(run.output)")
            #expect(lines.contains { $0.contains("GPS fixes,") && $0.contains("satellite reports") }, "\(run.output)")
            let log = try OBDEventLog(store: EventStore(path: path), sourceID: "car")
            let stored = try log.gpsFixes()
            #expect(!stored.isEmpty && stored.allSatisfy { facts.fixes[$0.time] != nil })
            let storedSkies = try log.gpsSatellites()
            #expect(
                !storedSkies.isEmpty
                    && storedSkies.allSatisfy {
                        facts.skies.contains(NMEALogFacts.Sky(time: $0.time ?? -1, seen: $0.seen, used: $0.used))
                    })
        }

        /// Reads the client's messages until every cycle's 3D fix and sky have come, or the stream ends.
        static func collect(from client: GPSDClient, until facts: NMEALogFacts) async -> (
            fixes: [EventSample<GPSFix>], satellites: [EventSample<GPSSatellites>]
        ) {
            var fixes: [EventSample<GPSFix>] = []
            var satellites: [EventSample<GPSSatellites>] = []
            var fixTimes = Set<Double>()
            var skies = Set<NMEALogFacts.Sky>()
            for await message in client.messages {
                switch message {
                case .fix(let sample):
                    fixes.append(sample)
                    if sample.payload.mode == 3 { fixTimes.insert(sample.payload.time) }
                case .satellites(let sample):
                    satellites.append(sample)
                    let sky = sample.payload
                    skies.insert(NMEALogFacts.Sky(time: sky.time ?? -1, seen: sky.seen, used: sky.used))
                }
                if fixTimes.isSuperset(of: facts.fixes.keys), skies.isSuperset(of: facts.skies) { break }
            }
            return (fixes, satellites)
        }
    }
}

@Suite("gpsd JSON: fixes and satellite reports")
struct GPSDMessageParsingTests {
    @Test("a SKY gives satellites seen and used, from nSat/uSat or else the list; its time is the last fix's")
    func sky() throws {
        let counted = #"{"class":"SKY","nSat":9,"uSat":5,"satellites":[{"PRN":1,"used":true}]}"#
        #expect(
            GPSDClient.message(fromLine: Array(counted.utf8), lastFixTime: 100)
                == .satellites(GPSSatellites(time: 100, seen: 9, used: 5)))
        let listed =
            #"{"class":"SKY","time":"2026-11-22T12:00:09.000Z","satellites":[{"PRN":1,"used":true},"#
            + #"{"PRN":2,"used":false},{"PRN":3,"used":true}]}"#
        #expect(
            GPSDClient.message(fromLine: Array(listed.utf8), lastFixTime: 100)
                == .satellites(GPSSatellites(time: 1_795_348_809, seen: 3, used: 2)))
        #expect(GPSDClient.message(fromLine: Array(#"{"class":"SKY","hdop":0.9}"#.utf8)) == nil)
    }

    @Test("a TPV fix keeps altitude only in 3D, speed and track; a 2D fix has no altitude")
    func tpv() throws {
        let threeD =
            #"{"class":"TPV","mode":3,"time":"2026-11-22T12:00:09.000Z","lat":48.1,"lon":11.5,"alt":545.4,"#
            + #""altMSL":545.5,"speed":11.524,"track":84.4}"#
        #expect(
            GPSDClient.message(fromLine: Array(threeD.utf8))
                == .fix(
                    GPSFix(
                        time: 1_795_348_809, latitude: 48.1, longitude: 11.5, altitude: 545.5, speed: 11.524,
                        track: 84.4, mode: 3)))
        let twoD = #"{"class":"TPV","mode":2,"time":"2026-11-22T12:00:09.000Z","lat":48.1,"lon":11.5,"alt":9}"#
        guard case .fix(let fix)? = GPSDClient.message(fromLine: Array(twoD.utf8)) else {
            Issue.record("no fix")
            return
        }
        #expect(fix.altitude == nil && fix.speed == nil && fix.mode == 2)
    }
}
