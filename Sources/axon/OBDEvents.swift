import ArgumentParser
import AxonEventStore
import AxonOBD
import AxonRecording
import Foundation

extension Axon.OBD {
    /// `axon obd events`: the stored event batches; acknowledge them with --ack.
    struct OBDEvents: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "events",
            abstract: "Deliver the stored driving-event batches (and acknowledge them with --ack).",
            discussion: """
                Prints every batch already delivered with its acknowledgement state, then delivers the pending one: \
                the oldest unacknowledged batch (the same id every time until acknowledged) or a new batch of the \
                events in none yet. With --ack the pending batches are acknowledged and never delivered again. \
                --detect FILE runs a recorded speed trace (CSV: seconds,km/h; # comments) through the hard-braking \
                and hard-acceleration detector and stores its events first. Batches carry the GPS fixes and \
                satellite counts stored since the previous one (`axon obd log --gpsd`, `axon obd watch --gpsd`). \
                --json prints one JSON object: "acknowledgedBefore" (ids) and "batches" (each with \
                "acknowledgementID", "acknowledged", "events", "gps").
                """)

        @Option(help: ArgumentHelp("The event store (SQLite) written by `axon obd watch --store`.", valueName: "FILE"))
        var store: String

        @Option(help: "The event log's source id in the store.")
        var source: String = "obd"

        @Option(help: ArgumentHelp("Detect events in a speed trace first (CSV seconds,km/h).", valueName: "CSV"))
        var detect: String?

        @Flag(help: "Acknowledge the pending batches.")
        var ack = false

        @Flag(help: "Print the batches as one JSON object.")
        var json = false

        func run() throws {
            let log = try OBDEventLog(store: EventStore(path: store), sourceID: source)
            if let detect {
                var detector = DrivingEventDetector()
                var found = 0
                for line in try String(contentsOfFile: detect, encoding: .utf8).split(separator: "\n") {
                    let fields = line.split(separator: ",")
                    guard fields.count >= 2, let time = Double(fields[0]), let kmh = Double(fields[1]) else { continue }
                    for event in detector.add(time: time, speedKmh: kmh) {
                        try log.record(event)
                        found += 1
                    }
                }
                if let last = detector.finish() {
                    try log.record(last)
                    found += 1
                }
                if !json { print("detected \(found) event\(found == 1 ? "" : "s") in \(detect)") }
            }
            if json {
                try printJSON(log)
                return
            }
            for state in try log.deliveredBatches() where state.acknowledged {
                print("\(state.batch.acknowledgementID) (acknowledged): \(state.batch.events.count) events")
            }
            var pending = 0
            while let batch = try log.nextBatch() {
                pending += 1
                print("\(batch.acknowledgementID) (\(ack ? "acknowledged now" : "not acknowledged")):")
                for stored in batch.events {
                    let event = stored.event
                    print(
                        "  \(stored.id)\t\(event.kind)\t\(fmt(event.startSpeedKmh, 0)) → \(fmt(event.endSpeedKmh, 0)) "
                            + "km/h (\(fmt(event.startSpeedMph, 1)) → \(fmt(event.endSpeedMph, 1)) mph)\tpeak "
                            + "\(fmt(event.peakRateMphPerSecond, 2)) mph/s\t\(fmt(event.endTime - event.startTime, 1)) s"
                            + (event.position.map { "\t\($0.latitude),\($0.longitude)" } ?? ""))
                }
                let fixes = batch.gps.filter { if case .fix = $0.report { true } else { false } }.count
                if !batch.gps.isEmpty {
                    print("  GPS: \(fixes) fixes, \(batch.gps.count - fixes) satellite counts")
                }
                guard ack else { break }
                try log.acknowledge(batch.acknowledgementID)
            }
            if pending == 0 { print("no batch pending") }
        }

        /// The JSON form: acknowledged batches by id, then the pending batch (or, with --ack, every pending batch).
        func printJSON(_ log: OBDEventLog) throws {
            var output = OBDEventsJSON()
            output.acknowledgedBefore = try log.deliveredBatches().filter(\.acknowledged).map(\.batch.acknowledgementID)
            while let batch = try log.nextBatch() {
                if ack { try log.acknowledge(batch.acknowledgementID) }
                output.append(batch, acknowledged: ack)
                guard ack else { break }
            }
            print(try output.printed())
        }
    }
}
