import ArgumentParser
import AxonEventStore
import AxonRecording
import AxonScales
import Foundation

/// `axon scale records [--out DB] [--device NAME] [--json]`: what `axon scale memory` and `measure` stored.
struct ScaleRecords: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records",
        abstract: "Show the weights (and body composition) stored per scale, oldest first (times in UTC).",
        discussion: """
            --json prints a list with one object per record: {"device": NAME, "id", "time", "record": {"time" (Unix \
            s), "weightKg", "bodyComposition"?}}.
            """)

    @Option(help: "The event store (SQLite) axon scale memory wrote.")
    var out: String = "axon-events.sqlite"

    @Option(help: "Only this scale (its name as in the store's source id scale-NAME).")
    var device: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    /// One record of `--json`.
    struct Entry: Encodable {
        /// The scale's name as in its source id.
        let device: String
        /// The record's id in the store.
        let id: String
        /// ISO 8601, UTC.
        let time: String
        /// The record as stored.
        let record: ScaleRecord
    }

    func run() throws {
        try StoredRecordsOutput.requireStore(out, writer: "axon scale memory")
        let store = try EventStore(path: out)
        var entries: [Entry] = []
        for stream in try store.streams()
        where stream.handle.sourceID.hasPrefix("scale-") && stream.handle.name == "Scale records" {
            let name = String(stream.handle.sourceID.dropFirst("scale-".count))
            guard device == nil || name == device else { continue }
            for event in try store.events(in: stream.handle, as: ScaleRecord.self) {
                entries.append(
                    Entry(
                        device: name, id: event.deviceRecordID, time: StoredRecordsOutput.isoTime(event.time),
                        record: event.payload))
            }
        }
        if json {
            print(try StoredRecordsOutput.json(entries))
            return
        }
        guard !entries.isEmpty else {
            print("no scale records\(device.map { " of \($0)" } ?? "") in \(out)")
            return
        }
        // Body composition columns only when some record has it (an HS3 or HS4 never sends it).
        let composition = entries.contains { $0.record.bodyComposition != nil }
        var headers = ["device", "time", "weight kg"]
        if composition {
            headers += ["fat %", "water %", "muscle %", "bone kg", "visceral", "DCI kcal", "impedance Ω"]
        }
        let rows = entries.map { entry -> [String] in
            var row = [entry.device, entry.time, String(format: "%.1f", entry.record.weightKg)]
            if composition {
                let c = entry.record.bodyComposition
                func fixed(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "-" }
                row += [
                    fixed(c?.fatPercent), fixed(c?.waterPercent), fixed(c?.musclePercent), fixed(c?.boneMassKg),
                    c?.visceralFatLevel.map(String.init) ?? "-", c?.dciKcal.map(String.init) ?? "-",
                    fixed(c?.impedanceOhm),
                ]
            }
            return row
        }
        print(StoredRecordsOutput.table(headers, rows))
        print("\(entries.count) record\(entries.count == 1 ? "" : "s")")
    }
}
