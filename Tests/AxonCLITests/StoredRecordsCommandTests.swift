import Foundation
import StreamTestSupport
import Testing

/// `axon band records` and `axon scale records` read back what `axon band sync` and `axon scale memory` stored,
/// through the built executable, on stores those commands filled.
@Suite("axon band records and axon scale records")
struct StoredRecordsCommandTests {
    static func axon(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        return try AxonExecutable.run(axon, arguments)
    }

    /// A store path in a fresh folder, removed by `body`'s end.
    static func withStore(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.appendingPathComponent("e.sqlite").path)
    }

    /// Syncs the simulated band into `store`; its name and what sync said it stored per kind
    /// (`stored for band-NAME: today 2, day 14, …`).
    static func syncBand(_ store: String) throws -> (device: String, counts: [String: Int]) {
        let sync = try axon(["band", "sync", "sim:band", "--out", store])
        #expect(sync.status == 0, "\(sync.output)")
        let line = try #require(sync.output.split(separator: "\n").first { $0.hasPrefix("stored for band-") })
        let parts = line.dropFirst("stored for band-".count).split(separator: ":", maxSplits: 1)
        var counts: [String: Int] = [:]
        for pair in parts[1].split(separator: ",") {
            let words = pair.split(separator: " ")
            counts[String(words[0])] = Int(words[1])
        }
        return (String(parts[0]), counts)
    }

    static func jsonList(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    @Test("band records --json: one band, every kind with as many records as sync stored, payloads as stored")
    func bandJSON() throws {
        try Self.withStore { store in
            let (device, counts) = try Self.syncBand(store)
            #expect(counts.count == 8 && counts.values.allSatisfy { $0 > 0 }, "\(counts)")
            let run = try Self.axon(["band", "records", "--out", store, "--json"])
            #expect(run.status == 0, "\(run.output)")
            let bands = try Self.jsonList(run.output)
            #expect(bands.count == 1)
            #expect(bands.first?["device"] as? String == device)
            let kinds = try #require(bands.first?["kinds"] as? [String: [[String: Any]]])
            #expect(kinds.mapValues(\.count) == counts)
            // The band's hour of heart rate: 60 per-minute values, and a UTC ISO 8601 time.
            let hour = try #require(kinds["hr"]?.first)
            #expect((hour["record"] as? [String: Any])?["beatsPerMinute"] as? [Any] != nil)
            #expect(((hour["record"] as? [String: Any])?["beatsPerMinute"] as? [Any])?.count == 60)
            #expect((hour["time"] as? String)?.hasSuffix("Z") == true, "\(hour)")
            // Today's walk as sync printed it: 6789 steps.
            let walk = kinds["today"]?.compactMap { $0["record"] as? [String: Any] }.first {
                ($0["sport"] as? [String: Any])?["name"] as? String == "walk"
            }
            #expect(walk?["steps"] as? Int == 6789, "\(String(describing: walk))")
            // Oldest first.
            let times = kinds["sleep"]?.compactMap { $0["time"] as? String } ?? []
            #expect(times == times.sorted() && !times.isEmpty)
        }
    }

    @Test("band records: a table per kind with its count, --kind and --device narrow it")
    func bandTablesAndFilters() throws {
        try Self.withStore { store in
            let (device, counts) = try Self.syncBand(store)
            let all = try Self.axon(["band", "records", "--out", store])
            #expect(all.status == 0, "\(all.output)")
            #expect(all.output.contains("\(device) — hr (hourly heart rate): \(counts["hr"]!)"), "\(all.output)")
            #expect(all.output.contains("\(device) — sleep (sleep segments): \(counts["sleep"]!)"), "\(all.output)")
            let walkRow = all.output.split(separator: "\n").first { $0.contains(" walk ") && $0.contains(" 6789 ") }
            #expect(walkRow != nil, "\(all.output)")

            let sleep = try Self.axon(["band", "records", "--out", store, "--kind", "sleep"])
            #expect(sleep.status == 0, "\(sleep.output)")
            #expect(sleep.output.contains("sleep segments"), "\(sleep.output)")
            #expect(!sleep.output.contains("hourly heart rate"), "\(sleep.output)")
            #expect(sleep.output.contains("deep sleep"), "\(sleep.output)")

            let sleepJSON = try Self.jsonList(
                try Self.axon(["band", "records", "--out", store, "--kind", "sleep", "--json"]).output)
            let kinds = sleepJSON.first?["kinds"] as? [String: [Any]]
            #expect(kinds?.keys.sorted() == ["sleep"])
            #expect(kinds?["sleep"]?.count == counts["sleep"])

            #expect(try Self.jsonList(Self.axon(["band", "records", "--out", store, "--device", device, "--json"]).output).count == 1)
            #expect(try Self.jsonList(Self.axon(["band", "records", "--out", store, "--device", "other", "--json"]).output).isEmpty)
            let other = try Self.axon(["band", "records", "--out", store, "--device", "other"])
            #expect(other.status == 0)
            #expect(other.output.contains("no band records of other in \(store)"), "\(other.output)")

            let unknown = try Self.axon(["band", "records", "--out", store, "--kind", "naps"])
            #expect(unknown.status == 64, "\(unknown.output)")
        }
    }

    @Test("records of a store that is not there: exit 1 with a message, and no file made")
    func missingStore() throws {
        try Self.withStore { store in
            for command in [["band", "records"], ["scale", "records"]] {
                let run = try Self.axon(command + ["--out", store])
                #expect(run.status == 1, "\(run.output)")
                #expect(run.output.contains("no event store at \(store)"), "\(run.output)")
                #expect(!FileManager.default.fileExists(atPath: store))
            }
        }
    }

    @Test("a store without records: says so, exit 0")
    func emptyStore() throws {
        try Self.withStore { store in
            // A store that exists and holds other streams (an OBD event log), none of a band or a scale.
            let obd = try Self.axon(["obd", "events", "--store", store])
            #expect(obd.status == 0, "\(obd.output)")
            let band = try Self.axon(["band", "records", "--out", store])
            #expect(band.status == 0)
            #expect(band.output == "no band records in \(store)\n", "\(band.output)")
            let scale = try Self.axon(["scale", "records", "--out", store])
            #expect(scale.status == 0)
            #expect(scale.output == "no scale records in \(store)\n", "\(scale.output)")
            #expect(try Self.jsonList(Self.axon(["scale", "records", "--out", store, "--json"]).output).isEmpty)
        }
    }

    @Test("scale records: the HS5's weights with body composition, oldest first; --device narrows them")
    func scaleRecords() throws {
        try Self.withStore { store in
            let memory = try Self.axon(["scale", "memory", "sim:hs5", "--records", "5", "--out", store])
            #expect(memory.status == 0, "\(memory.output)")
            #expect(memory.output.contains("5 in \(store)"), "\(memory.output)")
            let hs3 = try Self.axon(["scale", "memory", "sim:hs3", "--records", "2", "--out", store])
            #expect(hs3.status == 0, "\(hs3.output)")

            let records = try Self.jsonList(Self.axon(["scale", "records", "--out", store, "--json"]).output)
            #expect(records.count == 7)
            let hs5 = records.filter { $0["device"] as? String == "sim:hs5" }
            #expect(hs5.count == 5)
            let first = try #require(hs5.first?["record"] as? [String: Any])
            #expect(first["weightKg"] as? Double != nil, "\(first)")
            #expect((first["bodyComposition"] as? [String: Any])?["fatPercent"] as? Double != nil, "\(first)")
            let times = hs5.compactMap { $0["time"] as? String }
            #expect(times.count == 5 && times == times.sorted() && times.allSatisfy { $0.hasSuffix("Z") })

            let onlyHS3 = try Self.jsonList(
                Self.axon(["scale", "records", "--out", store, "--device", "sim:hs3", "--json"]).output)
            #expect(onlyHS3.count == 2)
            #expect(onlyHS3.allSatisfy { ($0["record"] as? [String: Any])?["bodyComposition"] == nil })

            let table = try Self.axon(["scale", "records", "--out", store, "--device", "sim:hs5"])
            #expect(table.status == 0, "\(table.output)")
            let lines = table.output.split(separator: "\n")
            #expect(lines.first?.hasPrefix("device") == true && lines.first?.contains("fat %") == true, "\(table.output)")
            #expect(lines.filter { $0.hasPrefix("sim:hs5 ") }.count == 5, "\(table.output)")
            #expect(lines.last == "5 records", "\(table.output)")
        }
    }
}
