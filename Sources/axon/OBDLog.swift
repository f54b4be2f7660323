import ArgumentParser
import AxonEventStore
import AxonOBD
import AxonRecording
import AxonStreams
import Foundation

extension Axon.OBD {
    /// `axon obd log`: the datalogger, as a long-running process.
    struct OBDLog: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract:
                "Log every driving event and GPS message into an event store until SIGINT/SIGTERM (the datalogger).",
            discussion: """
                Connects to the dongle (trying again while it does not answer), makes it the favourite and logs \
                every event kind of --events — all eight by default, whether or not an application registered \
                them — into --store, each stamped with gpsd's latest fix when --gpsd is given; with --gpsd every GPS \
                fix and satellite count is stored too. When the link drops the gateway reconnects with back-off. \
                Nothing is acknowledged: `axon obd events --store FILE` (or the library's OBDEventLog.nextBatch) \
                delivers the stored events and GPS messages in batches with an acknowledgement id, and --ack \
                removes them from delivery. A restarted logger goes on with the same store without storing anything \
                twice. Prints one line per status change and per logged event.
                """)

        @OptionGroup var connection: OBDConnectionOptions
        @OptionGroup var access: OBDAccessOptions

        @Option(help: ArgumentHelp("The event store (SQLite) to log into.", valueName: "FILE"))
        var store: String

        @Option(help: "The event log's source id in the store.")
        var source: String = "obd"

        @Option(
            help: ArgumentHelp(
                "Event kinds to log, comma-separated (default: all): "
                    + OBDEventKind.allCases.map(\.rawValue).joined(separator: ", ") + ".", valueName: "KINDS"))
        var events = OBDEventKind.allCases.map(\.rawValue).joined(separator: ",")

        @Option(help: ArgumentHelp("Stamp events with this gpsd's fix and store its messages.", valueName: "HOST:PORT"))
        var gpsd: String?

        func validate() throws {
            if let gpsd, OBDEndpoint.tcp(gpsd) == nil { throw ValidationError("--gpsd must be HOST:PORT") }
            _ = try kinds()
        }

        /// The kinds `--events` names.
        func kinds() throws -> Set<OBDEventKind> {
            Set(
                try events.split(separator: ",").map { name in
                    guard let kind = OBDEventKind(rawValue: String(name)) else {
                        throw ValidationError(
                            "unknown event \(name); one of "
                                + OBDEventKind.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    return kind
                })
        }

        func run() throws {
            let eventLog = try OBDEventLog(store: EventStore(path: store), sourceID: source)
            // Without an endpoint: the favourite stored in --store by an earlier log or watch.
            guard let endpoint = try connection.endpoint ?? eventLog.storedFavorite()?.endpoint else {
                throw ValidationError("give --port, --tcp or --ble, or a --store with a favourite stored earlier")
            }
            var gps: GPSDClient?
            if let gpsd, case .tcp(let host, let port)? = OBDEndpoint.tcp(gpsd) {
                gps = try GPSDClient(host: host, port: port, log: eventLog)
            }
            defer { gps?.stop() }
            let gateway = try access.gateway(eventLog: eventLog, positionSource: gps)
            let logger = try OBDLogger(gateway: gateway, endpoint: endpoint, kinds: try kinds())
            let stopRequested = StopSignals()
            stopRequested.onStop { logger.stop() }
            let statusTask = Task.detached {
                for await status in gateway.status {
                    print("status: \(status)")
                    flushStandardOutput()
                }
            }
            defer { statusTask.cancel() }
            let attempt = Result { () throws(OBDGatewayError) -> (device: OBDDevice, kinds: Set<OBDEventKind>) in
                try logger.start()
            }
            // Stopped before the dongle ever answered: nothing to log.
            if case .failure(.notConnected) = attempt, stopRequested.isSet { return }
            let started = try attempt.get()
            let logged = OBDEventKind.allCases.filter(started.kinds.contains).map(\.rawValue)
            print(
                "axon obd log: \(started.device.name) at \(started.device.identifier); logging "
                    + logged.joined(separator: ", ") + " into \(store) (source \(source))"
                    + (gpsd.map { " with gpsd at \($0)" } ?? "") + " until SIGINT/SIGTERM")
            flushStandardOutput()
            // This run's events start after it connected: only those are read back, however large the store.
            let since = HostClock.unixNow() - 1
            var known = Set(try eventLog.allEvents(from: since).map(\.id))
            while !stopRequested.isSet {
                HostClock.sleep(until: HostClock.now() + 0.5)
                // Report what the poller stored since the last look (the store is the log's truth).
                guard let stored = try? eventLog.allEvents(from: since) else { continue }
                for new in stored where !known.contains(new.id) {
                    known.insert(new.id)
                    let event = new.event
                    print(
                        "logged: \(new.id) \(event.kind) \(fmt(event.startSpeedKmh, 0)) → \(fmt(event.endSpeedKmh, 0)) "
                            + "km/h" + (event.position.map { " at \($0.latitude), \($0.longitude)" } ?? ""))
                    flushStandardOutput()
                }
            }
            logger.stop()
            if let gps {
                print("axon obd log: \(gps.fixCount) GPS fixes, \(gps.satelliteReportCount) satellite reports")
            }
        }
    }
}
