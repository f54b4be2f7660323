import ArgumentParser
import AxonBand
import AxonEventStore
import AxonRecording
import Foundation

extension Axon {
    /// `axon band records [--out DB] [--device NAME] [--kind KIND] [--json]`: what `axon band sync` stored.
    struct BandRecords: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "records",
            abstract: "Show the records band syncs stored, per band and kind, oldest first (times in UTC).",
            discussion: """
                KIND is one of \(BandRecordKind.allCases.map(\.word).joined(separator: ", ")). --json prints a list \
                with one object per band: {"device": NAME, "kinds": {KIND: [{"id", "time", "record"}…]}}, each \
                record in the store's own encoding.
                """)

        @Option(help: "The event store (SQLite) axon band sync wrote.")
        var out = "axon-events.sqlite"

        @Option(help: "Only this band (its name as in the store's source id band-NAME).")
        var device: String?

        @Option(help: "Only this kind of record.")
        var kind: String?

        @Flag(help: "Print JSON instead of tables.")
        var json = false

        func validate() throws {
            if let kind, BandRecordKind.allCases.first(where: { $0.word == kind }) == nil {
                throw ValidationError(
                    "unknown kind \(kind): \(BandRecordKind.allCases.map(\.word).joined(separator: ", "))")
            }
        }

        func run() throws {
            try StoredRecordsOutput.requireStore(out, writer: "axon band sync")
            let kinds = BandRecordKind.allCases.filter { kind == nil || $0.word == kind }
            let bands = try BandStoredRecords.all(in: EventStore(path: out), kinds: Set(kinds))
                .filter { device == nil || $0.device == device }
            if json {
                print(try StoredRecordsOutput.json(bands.map { BandJSON(band: $0, kinds: kinds) }))
                return
            }
            let shown = bands.filter { band in kinds.contains { band.count($0) > 0 } }
            if shown.isEmpty {
                print("no band records\(device.map { " of \($0)" } ?? "") in \(out)")
                return
            }
            for band in shown {
                for kind in kinds where band.count(kind) > 0 {
                    print("\(band.device) — \(kind.word) (\(kind.streamName.lowercased())): \(band.count(kind))")
                    print(Self.table(kind, of: band))
                    print("")
                }
            }
        }

        /// The table of one kind: the time first (UTC), then what the band reported.
        static func table(_ kind: BandRecordKind, of band: BandStoredRecords) -> String {
            let t = StoredRecordsOutput.isoTime
            let clock = StoredRecordsOutput.clock
            switch kind {
            case .today:
                return StoredRecordsOutput.table(
                    ["time", "sport", "steps", "kcal", "m", "count"],
                    band.today.map { e in
                        let p = e.payload
                        return [
                            t(e.time), p.sport?.name ?? "-", "\(p.steps)", "\(p.calories)", "\(p.distance)",
                            p.count.map(String.init) ?? "-",
                        ]
                    })
            case .day:
                return StoredRecordsOutput.table(
                    ["time", "date", "sport", "steps", "kcal", "m", "count"],
                    band.day.map { e in
                        let p = e.payload
                        return [
                            t(e.time), "\(p.date)", p.sport.name, "\(p.steps)", "\(p.calories)", "\(p.distance)",
                            "\(p.count)",
                        ]
                    })
            case .sport:
                return StoredRecordsOutput.table(
                    ["time", "date", "start", "end", "sport", "steps", "kcal", "m", "activity", "count"],
                    band.sport.map { e in
                        let p = e.payload
                        return [
                            t(e.time), "\(p.date)", clock(p.startMinute), clock(p.endMinute), p.sport.name,
                            "\(p.steps)", "\(p.calories)", "\(p.distance)", "\(p.activity)", "\(p.count)",
                        ]
                    })
            case .sleep:
                return StoredRecordsOutput.table(
                    ["time", "date", "start", "end", "min", "type"],
                    band.sleep.map { e in
                        let p = e.payload
                        return [
                            t(e.time), "\(p.date)", clock(p.startMinute), clock(p.endMinute), "\(p.minutes)",
                            "\(p.type)",
                        ]
                    })
            case .heartRate:
                return StoredRecordsOutput.table(
                    ["time", "date", "hour", "readings", "min", "mean", "max", "bpm"],
                    band.heartRate.map { e in
                        let p = e.payload
                        let values = p.readings.map(\.beatsPerMinute)
                        let mean = values.isEmpty ? "-" : "\(Int((Double(values.reduce(0, +)) / Double(values.count)).rounded()))"
                        return [
                            t(e.time), "\(p.date)", "\(p.hour)", "\(values.count)/\(p.beatsPerMinute.count)",
                            values.min().map(String.init) ?? "-", mean, values.max().map(String.init) ?? "-",
                            // Minute by minute, `-` where the band had no reading.
                            p.beatsPerMinute.map { $0.map(String.init) ?? "-" }.joined(separator: " "),
                        ]
                    })
            case .supportedSports:
                return StoredRecordsOutput.table(
                    ["time", "index", "code", "sport", "band name", "unit", "max active"],
                    band.supportedSports.map { e in
                        let p = e.payload
                        return [
                            t(e.time), "\(p.index + 1)/\(p.total)", String(format: "0x%02x", p.entry.sport.code),
                            p.entry.sport.name, p.entry.name, p.entry.unit, "\(p.maximumActive)",
                        ]
                    })
            case .takePicture, .searchPhone:
                let presses = kind == .takePicture ? band.takePicture : band.searchPhone
                return StoredRecordsOutput.table(
                    ["time", "date", "band time"],
                    presses.map { e in
                        let s = e.payload.second
                        return [t(e.time), "\(e.payload.date)", String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)]
                    })
            }
        }
    }

    /// One band in `axon band records --json`: `{"device": NAME, "kinds": {KIND: [rows]}}`, every requested kind
    /// present (an empty list when the band sent none), so a reader can tell "none" from "not asked for".
    struct BandJSON: Encodable {
        let band: BandStoredRecords
        let kinds: [BandRecordKind]

        private enum Keys: String, CodingKey { case device, kinds }
        private struct KindKey: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: Keys.self)
            try object.encode(band.device, forKey: .device)
            var byKind = object.nestedContainer(keyedBy: KindKey.self, forKey: .kinds)
            for kind in kinds {
                let key = KindKey(stringValue: kind.word)
                switch kind {
                case .today: try byKind.encode(rows(band.today), forKey: key)
                case .day: try byKind.encode(rows(band.day), forKey: key)
                case .sport: try byKind.encode(rows(band.sport), forKey: key)
                case .sleep: try byKind.encode(rows(band.sleep), forKey: key)
                case .heartRate: try byKind.encode(rows(band.heartRate), forKey: key)
                case .supportedSports: try byKind.encode(rows(band.supportedSports), forKey: key)
                case .takePicture: try byKind.encode(rows(band.takePicture), forKey: key)
                case .searchPhone: try byKind.encode(rows(band.searchPhone), forKey: key)
                }
            }
        }

        private func rows<P: Encodable>(_ events: [StoredEvent<P>]) -> [StoredRecordsOutput.Row<P>] {
            events.map { .init(id: $0.deviceRecordID, time: StoredRecordsOutput.isoTime($0.time), record: $0.payload) }
        }
    }
}
