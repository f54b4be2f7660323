import ArgumentParser
import AxonEventStore
import AxonLSL
import AxonOBD
import AxonRecording
import AxonStreams
import Dispatch
import Foundation

extension Axon.OBD {
    /// `axon obd watch PID…`: continuous updates as a live table, optionally recorded to CSV or EDF+/BDF+.
    struct OBDWatch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Poll up to 5 standard PIDs continuously: a live table, and a CSV, EDF+ or BDF+ file with --out.",
            discussion: """
                The PIDs are registered for continuous updates (request id 1) and polled --rate times a second, one \
                request at a time; each poll is one row. The dongle is the favourite: when its link is lost the \
                status is printed, the missing polls become a gap, and the gateway reconnects with back-off. With \
                --store, hard braking and hard acceleration are detected from vehicle speed and stored in that event \
                store (see `axon obd events`, which acknowledges them: watch never does), stamped with gpsd's \
                latest fix when --gpsd is given. With --gpsd, every fix and satellite count is printed as a line of \
                its own ("gps: …") and, with --store, kept in the store's GPS fixes and GPS satellites streams. The dongle becomes the favourite, stored with --store: a later watch \
                without --port/--tcp/--ble connects to it. Runs until --seconds or SIGINT/SIGTERM, which close the \
                file cleanly.
                """)

        @Argument(help: "Up to 5 standard PIDs: names, 0xHEX or numbers 0–255.")
        var pids: [String]

        @OptionGroup var connection: OBDConnectionOptions
        @OptionGroup var access: OBDAccessOptions

        @Option(help: "Polls per second.")
        var rate: Double = 5

        @Option(help: "Record to this file: .csv, .edf (EDF+) or .bdf (BDF+).")
        var out: String?

        @Option(help: ArgumentHelp("Seconds to watch (default: until SIGINT/SIGTERM)."))
        var seconds: Double?

        @Option(name: .customLong("duration"), help: ArgumentHelp("Deprecated: --seconds.", visibility: .hidden))
        var deprecatedDuration: Double?

        /// `--seconds`, or the old `--duration`.
        var duration: Double? { deprecatedDuration ?? seconds }

        @Option(help: ArgumentHelp("Detect driving events into this event store (SQLite).", valueName: "FILE"))
        var store: String?

        @Option(
            help: ArgumentHelp(
                "With --store: up to 5 event kinds, comma-separated: "
                    + OBDEventKind.allCases.map(\.rawValue).joined(separator: ", ") + ".", valueName: "KINDS"))
        var events = "hardBraking,hardAcceleration"

        /// The kinds `--events` names.
        func eventKinds() throws -> [OBDEventKind] {
            try events.split(separator: ",").map { name in
                guard let kind = OBDEventKind(rawValue: String(name)) else {
                    throw ValidationError(
                        "unknown event \(name); one of \(OBDEventKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return kind
            }
        }

        @Option(help: "The event log's source id in the store.")
        var source: String = "obd"

        @Option(help: ArgumentHelp("Stamp events with the fix of this gpsd (JSON protocol).", valueName: "HOST:PORT"))
        var gpsd: String?

        @OptionGroup var lsl: LSLOutputOptions

        func validate() throws {
            guard rate.isFinite, rate > 0, duration.map({ $0 > 0 }) ?? true else {
                throw ValidationError("need --rate and --seconds > 0")
            }
            if let gpsd, OBDEndpoint.tcp(gpsd) == nil { throw ValidationError("--gpsd must be HOST:PORT") }
            _ = try eventKinds()
            if let out, !["csv", "edf", "bdf"].contains(URL(fileURLWithPath: out).pathExtension.lowercased()) {
                throw ValidationError("--out must end in .csv, .edf or .bdf")
            }
        }

        func run() throws {
            Deprecation.announce("--duration", given: deprecatedDuration != nil, use: "--seconds", command: "obd watch")
            let numbers = try parsePIDs(pids).map(\.number)
            let eventLog = try store.map { try OBDEventLog(store: EventStore(path: $0), sourceID: source) }
            var gps: GPSDClient?
            if let gpsd, case .tcp(let host, let port)? = OBDEndpoint.tcp(gpsd) {
                gps = try GPSDClient(host: host, port: port, log: eventLog)
            }
            defer { gps?.stop() }
            let gateway = try access.gateway(eventLog: eventLog, positionSource: gps)
            // Batches stay unacknowledged until `axon obd events --ack`: watching is not reading them.
            gateway.setAutoAcknowledgement(false)
            // Without an endpoint: the favourite an earlier watch stored in --store (the seed's autoconnect).
            let device: OBDDevice
            if let endpoint = connection.endpoint {
                device = try gateway.connect(endpoint)
                try gateway.setFavorite(device)
            } else {
                guard eventLog != nil, let favorite = try gateway.connectToFavorite() else {
                    throw ValidationError(
                        "give --port, --tcp or --ble, or --store with a favourite stored by an earlier watch")
                }
                device = favorite
            }
            var sinks: [any SampleSink] = [OBDTableSink()]
            if let out {
                switch URL(fileURLWithPath: out).pathExtension.lowercased() {
                case "csv": sinks.append(CSVSink(path: out))
                case "bdf": sinks.append(EDFSink(path: out, options: .init(format: .bdfPlus)))
                default: sinks.append(EDFSink(path: out, options: .init(format: .edfPlus)))
                }
            }
            let library = try lsl.library()
            // The PIDs' outlet opens with the registration's stream; its status (the gateway's link) next to it.
            let status = try lsl.statusOutlet(
                StreamDescriptor(
                    name: "OBD request 1", contentType: .obd, channels: [], nominalRate: 0, format: .string,
                    sourceID: "obd:\(device.identifier)"), library: library)
            if let library { sinks.append(LSLOutletSink(library: library, status: status)) }
            let registration = try gateway.registerDataPIDs(requestID: 1, pids: numbers, rate: rate, sinks: sinks)
            if eventLog != nil { try gateway.registerEvents(try eventKinds()) }
            let lslNote = library != nil ? " and LSL outlet \"\(registration.descriptor.name)\"" : ""
            let channels = registration.descriptor.channels.map { "\($0.label) [\($0.unit)]" }.joined(separator: ", ")
            let destination = (out.map { " → \($0)" } ?? "") + lslNote
            let until = duration.map { " for \(fmt($0, 1)) s" } ?? " until SIGINT/SIGTERM"
            print(
                "axon obd watch: \(device.name) at \(device.identifier); \(channels) at \(fmt(rate, 1)) Hz"
                    + destination + until)
            flushStandardOutput()
            let statusTask = Task.detached {
                for await linkStatus in gateway.status {
                    status?.publishNow("\(linkStatus)")
                    print("status: \(linkStatus)")
                    flushStandardOutput()
                }
            }
            let eventTask = Task.detached {
                for await event in gateway.events {
                    print(
                        "event: \(event.kind) \(fmt(event.startSpeedMph, 1)) → \(fmt(event.endSpeedMph, 1)) mph, "
                            + "peak \(fmt(event.peakRateMphPerSecond, 2)) mph/s"
                            + (event.position.map { " at \($0.latitude), \($0.longitude)" } ?? ""))
                    flushStandardOutput()
                }
            }
            let gpsTask = gps.map { gps in
                Task.detached {
                    for await message in gps.messages {
                        print(Self.line(for: message))
                        flushStandardOutput()
                    }
                }
            }
            let stopRequested = StopSignals()
            let end = duration.map { HostClock.now() + $0 } ?? .infinity
            while !stopRequested.isSet, HostClock.now() < end {
                HostClock.sleep(until: min(end, HostClock.now() + 0.1))
            }
            let statistics = registration.statistics()
            gateway.disconnect()
            statusTask.cancel()
            eventTask.cancel()
            if let gps {
                gps.stop()
                gpsTask?.cancel()
                let failures = gps.storeFailures
                print(
                    "axon obd watch: \(gps.fixCount) GPS fixes, \(gps.satelliteReportCount) satellite reports"
                        + (failures.count > 0 ? "; \(failures.count) not stored: \(failures.lastError ?? "")" : ""))
            }
            print(
                "axon obd watch: \(registration.frameCount) rows, \(registration.missedTicks) polls missed, "
                    + "\(statistics.gapRecords) gap records")
            for failure in statistics.failures { print("sink failure: \(failure)") }
        }
    }
}

extension Axon.OBD.OBDWatch {
    /// One printed line per GPS message: "gps: fix …" with every field the fix has, or "gps: satellites …".
    static func line(for message: GPSMessage) -> String {
        switch message {
        case .fix(let sample):
            let fix = sample.payload
            let time = Date(timeIntervalSince1970: fix.time).formatted(.iso8601)
            return "gps: fix \(fix.mode)D \(time) \(fmt(fix.latitude, 6)), \(fmt(fix.longitude, 6))"
                + (fix.altitude.map { " alt \(fmt($0, 1)) m" } ?? "")
                + (fix.speed.map { " speed \(fmt($0, 2)) m/s" } ?? "")
                + (fix.track.map { " track \(fmt($0, 1))°" } ?? "")
        case .satellites(let sample):
            return "gps: satellites \(sample.payload.seen) seen, \(sample.payload.used) used"
        }
    }
}

/// Prints each row of the stream: time since the first row, then every channel with its unit; gaps on their own line.
final class OBDTableSink: SampleSink {
    let name = "table"
    private var labels: [String] = []
    private var first: Double?

    func open(_ descriptor: StreamDescriptor) throws {
        labels = descriptor.channels.map { "\($0.label) %.2f \($0.unit)" }
    }

    func write(_ block: SampleBlock) throws {
        var gapIndex = 0
        let gaps = block.gaps
        for frame in 0..<block.frameCount {
            while gapIndex < gaps.count, gaps[gapIndex].beforeFrame <= frame {
                print("gap: \(gaps[gapIndex].gap.missingCount) polls missing (\(gaps[gapIndex].gap.cause))")
                gapIndex += 1
            }
            let time = block.timestamp(ofFrame: frame)
            let start = first ?? time
            first = start
            let values = block.values(ofFrame: frame)
            let cells = labels.enumerated().map { String(format: $0.element, values[$0.offset]) }
            print(fmt(time - start, 2) + " s\t" + cells.joined(separator: "\t"))
        }
        flushStandardOutput()
    }

    func close() throws {}
}
