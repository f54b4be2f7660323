import AxonStreams
import Foundation
import Synchronization
import Testing

@testable import AxonEventStore

@Suite("EventStore: durable, idempotent event records in SQLite")
struct EventStoreTests {
    @Test("the file is in WAL mode with synchronous = FULL on the writer")
    func durabilitySettings() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let settings = try store.durabilitySettings()
        #expect(settings.journalMode == "wal")
        #expect(settings.synchronous == 2)
        #expect(try store.integrityCheck() == ["ok"])
    }

    @Test("records come back with their ids, times and payloads, ordered by time")
    func roundTrip() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let scale = try store.register(EventStoreFixtures.scaleDescriptor())
        let records = [
            StoredEvent(
                deviceRecordID: "slot3@1763800200", deviceTime: 1_763_800_200, hostTime: 1_763_900_000.25,
                payload: ScaleReading(kg: 71.4, impedance: 512)),
            StoredEvent(
                deviceRecordID: "slot1@1763800000", deviceTime: 1_763_800_000, hostTime: 1_763_900_000.5,
                payload: ScaleReading(kg: 71.9, impedance: 498)),
            StoredEvent(
                deviceRecordID: "slot2@1763800100", deviceTime: 1_763_800_100, hostTime: 1_763_900_000.75,
                payload: ScaleReading(kg: 72.05, impedance: 505)),
        ]
        for record in records {
            #expect(try store.insert(scale, record: record) == .inserted)
        }
        #expect(try store.count(in: scale) == 3)
        let back = try store.events(in: scale, as: ScaleReading.self)
        #expect(back.map(\.deviceRecordID) == ["slot1@1763800000", "slot2@1763800100", "slot3@1763800200"])
        #expect(back.map(\.payload.kg) == [71.9, 72.05, 71.4])
        #expect(back.map(\.payload.impedance) == [498, 505, 512])
        #expect(back.map(\.hostTime) == [1_763_900_000.5, 1_763_900_000.75, 1_763_900_000.25])
        #expect(back == [records[1], records[2], records[0]])
        #expect(try store.deviceRecordIDs(in: scale) == ["slot3@1763800200", "slot1@1763800000", "slot2@1763800100"])
    }

    @Test("the same device record sent twice is stored once and reported as a duplicate")
    func duplicate() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let scale = try store.register(EventStoreFixtures.scaleDescriptor())
        let reading = ScaleReading(kg: 80.2, impedance: 433)
        #expect(
            try store.insert(scale, deviceRecordID: "7", deviceTime: 1000, hostTime: 5000, payload: reading)
                == .inserted)
        // The re-send arrives later: host time differs, the record is the same.
        #expect(
            try store.insert(scale, deviceRecordID: "7", deviceTime: 1000, hostTime: 5060, payload: reading)
                == .duplicate)
        #expect(try store.count(in: scale) == 1)
        #expect(try store.events(in: scale, as: ScaleReading.self).map(\.hostTime) == [5000])
        #expect(try store.conflicts(in: scale).isEmpty)
    }

    @Test("a re-send with a different payload or device time keeps the first and logs the second as a conflict")
    func conflict() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let scale = try store.register(EventStoreFixtures.scaleDescriptor())
        try store.insert(
            scale, deviceRecordID: "7", deviceTime: 1000, hostTime: 5000,
            payload: ScaleReading(kg: 80.2, impedance: 433))
        #expect(
            try store.insert(
                scale, deviceRecordID: "7", deviceTime: 1000, hostTime: 5001,
                payload: ScaleReading(kg: 80.4, impedance: 433)) == .conflict)
        #expect(
            try store.insert(
                scale, deviceRecordID: "7", deviceTime: 1001, hostTime: 5002,
                payload: ScaleReading(kg: 80.2, impedance: 433)) == .conflict)
        // The stored payload with a third device time, then the same conflicting records again: conflicts, each
        // distinct content logged once.
        #expect(
            try store.insert(
                scale, deviceRecordID: "7", deviceTime: 1002, hostTime: 5004,
                payload: ScaleReading(kg: 80.2, impedance: 433)) == .conflict)
        #expect(
            try store.insert(
                scale, deviceRecordID: "7", deviceTime: 1001, hostTime: 5005,
                payload: ScaleReading(kg: 80.2, impedance: 433)) == .conflict)
        #expect(
            try store.insert(
                scale, deviceRecordID: "7", deviceTime: 1000, hostTime: 5003,
                payload: ScaleReading(kg: 80.4, impedance: 433)) == .conflict)
        #expect(try store.count(in: scale) == 1)
        #expect(
            try store.events(in: scale, as: ScaleReading.self).map(\.payload) == [
                ScaleReading(kg: 80.2, impedance: 433)
            ])
        let conflicts = try store.conflicts(in: scale)
        #expect(conflicts.count == 3)
        #expect(
            conflicts.map(\.payloadJSON) == [
                #"{"impedance":433,"kg":80.4}"#, #"{"impedance":433,"kg":80.2}"#, #"{"impedance":433,"kg":80.2}"#,
            ])
        #expect(conflicts.map(\.deviceTime) == [1000, 1001, 1002])
        #expect(conflicts.map(\.hostTime) == [5001, 5002, 5004])
    }

    @Test("a time range returns exactly the records inside it, device time first, host time as fallback")
    func timeRange() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let band = try store.register(EventStoreFixtures.sleepDescriptor)
        // Ten records with device times 1000, 1010, …, 1090 (host times far away), two with host time only.
        let batch: [StoredEvent<Int>] =
            (0..<10).map { (i: Int) -> StoredEvent<Int> in
                StoredEvent(
                    deviceRecordID: "r\(i)", deviceTime: 1000 + 10 * Double(i), hostTime: 9_000 + Double(i),
                    payload: i)
            } + [
                StoredEvent(deviceRecordID: "h1", deviceTime: nil, hostTime: 1035, payload: 100),
                StoredEvent(deviceRecordID: "h2", deviceTime: nil, hostTime: 1200, payload: 101),
            ]
        #expect(try store.insert(band, batch: batch) == Array(repeating: .inserted, count: 12))
        let inside = try store.events(in: band, from: 1020, to: 1060, as: Int.self)
        #expect(inside.map(\.deviceRecordID) == ["r2", "r3", "h1", "r4", "r5"])
        #expect(inside.map(\.time) == [1020, 1030, 1035, 1040, 1050])
        #expect(inside.map(\.payload) == [2, 3, 100, 4, 5])
        #expect(
            try store.events(in: band, from: 1020, to: 1060, limit: 2, as: Int.self).map(\.deviceRecordID)
                == ["r2", "r3"])
        #expect(try store.events(in: band, from: 1090, as: Int.self).map(\.deviceRecordID) == ["r9", "h2"])
        #expect(try store.events(in: band, to: 1000, as: Int.self).isEmpty)
        #expect(try store.events(in: band, from: 1091, to: 1200, as: Int.self).isEmpty)
        #expect(try store.events(in: band, limit: 0, as: Int.self).isEmpty)
        #expect(try store.count(in: band) == 12)
    }

    @Test("a batch is one transaction with an outcome per record, repeats inside the batch included")
    func batch() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let scale = try store.register(EventStoreFixtures.scaleDescriptor())
        for i in 0..<3 {
            try store.insert(
                scale, deviceRecordID: "m\(i)", deviceTime: Double(i),
                payload: ScaleReading(
                    kg: 70, impedance: i))
        }
        var batch = (0..<100).map { i in
            StoredEvent(deviceRecordID: "m\(i)", deviceTime: Double(i), payload: ScaleReading(kg: 70, impedance: i))
        }
        batch.append(batch[50])  // a repeat inside the batch
        batch.append(StoredEvent(deviceRecordID: "m60", deviceTime: 60, payload: ScaleReading(kg: 71, impedance: 60)))
        let outcomes = try store.insert(scale, batch: batch)
        #expect(outcomes.count == 102)
        #expect(outcomes.filter { $0 == .inserted }.count == 97)
        #expect(outcomes.filter { $0 == .duplicate }.count == 4)
        #expect(outcomes.filter { $0 == .conflict }.count == 1)
        #expect(Array(outcomes[0..<3]) == [.duplicate, .duplicate, .duplicate])
        #expect(outcomes[100] == .duplicate && outcomes[101] == .conflict)
        #expect(try store.count(in: scale) == 100)
        #expect(try store.insert(scale, batch: [StoredEvent<ScaleReading>]()) == [])
    }

    @Test("an invalid record in a batch stores nothing of the batch")
    func invalidRecordRejectsBatch() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let scale = try store.register(EventStoreFixtures.scaleDescriptor())
        let good = StoredEvent(deviceRecordID: "ok", deviceTime: 1, payload: ScaleReading(kg: 1, impedance: 1))
        #expect(throws: EventStoreError.invalidRecord(deviceRecordID: "", reason: "the device record id is empty")) {
            try store.insert(scale, batch: [good, StoredEvent(deviceRecordID: "", payload: good.payload)])
        }
        #expect(throws: EventStoreError.invalidRecord(deviceRecordID: "nan", reason: "device time nan")) {
            try store.insert(
                scale,
                batch: [
                    good,
                    StoredEvent(
                        deviceRecordID: "nan", deviceTime: .nan,
                        payload: good.payload),
                ])
        }
        #expect(try store.count(in: scale) == 0)
    }

    @Test("reopening the file finds every stream, descriptor and record")
    func reopen() throws {
        let dir = try EventStoreTemporaryDirectory()
        let path = dir.file("events.sqlite")
        let scaleHandle: StreamHandle
        let bandHandle: StreamHandle
        do {
            let store = try EventStore(path: path)
            scaleHandle = try store.register(EventStoreFixtures.scaleDescriptor())
            bandHandle = try store.register(EventStoreFixtures.sleepDescriptor)
            try store.insert(
                scaleHandle,
                batch: (0..<250).map { i in
                    StoredEvent(
                        deviceRecordID: "s\(i)", deviceTime: 1_000 + Double(i), hostTime: 2_000 + Double(i),
                        payload: ScaleReading(kg: 60 + Double(i) / 10, impedance: 400 + i))
                })
            try store.insert(bandHandle, deviceRecordID: "seg-1", deviceTime: 3_000, payload: 2)
        }
        let store = try EventStore(path: path)
        let streams = try store.streams()
        #expect(
            streams.map(\.descriptor) == [EventStoreFixtures.scaleDescriptor(), EventStoreFixtures.sleepDescriptor])
        #expect(streams.map(\.handle) == [scaleHandle, bandHandle])
        #expect(streams.map(\.revision) == [1, 1])
        #expect(bandHandle.tableName == "events_2_sleep_segments__v2__aa_bb_cc_dd_ee_ff")
        #expect(try store.register(EventStoreFixtures.scaleDescriptor()) == scaleHandle)
        #expect(store.stream(sourceID: "AA:BB:CC:DD:EE:FF", name: "Sleep segments (v2)") == bandHandle)
        #expect(try store.count(in: scaleHandle) == 250)
        #expect(try store.count(in: bandHandle) == 1)
        let events = try store.events(in: scaleHandle, from: 1_100, to: 1_103, as: ScaleReading.self)
        #expect(
            events.map(\.payload) == [
                ScaleReading(kg: 70, impedance: 500), ScaleReading(kg: 70.1, impedance: 501),
                ScaleReading(kg: 70.2, impedance: 502),
            ])
        #expect(events.map(\.hostTime) == [2_100, 2_101, 2_102])
        // Records sent again after the reopen are still recognised.
        #expect(
            try store.insert(
                scaleHandle, deviceRecordID: "s7", deviceTime: 1_007, hostTime: 9_999,
                payload: ScaleReading(kg: 60.7, impedance: 407)) == .duplicate)
        #expect(try store.integrityCheck() == ["ok"])
    }

    @Test("a changed descriptor is refused by default and replaced on request, records kept")
    func descriptorChange() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let handle = try store.register(EventStoreFixtures.scaleDescriptor())
        try store.insert(handle, deviceRecordID: "a", deviceTime: 1, payload: ScaleReading(kg: 1, impedance: 1))
        let changed = EventStoreFixtures.scaleDescriptor(unit: "lb")
        #expect(throws: EventStoreError.descriptorChanged(sourceID: "scale-0042", name: "Weight")) {
            try store.register(changed)
        }
        #expect(try store.register(changed, ifChanged: .replace) == handle)
        let stored = try #require(try store.streams().first)
        #expect(stored.descriptor.channels.map(\.unit) == ["lb"])
        #expect(stored.revision == 2)
        #expect(try store.count(in: handle) == 1)
        // Another device of the same model is another stream.
        let other = try store.register(EventStoreFixtures.scaleDescriptor(sourceID: "scale-0043"))
        #expect(other.id != handle.id)
        #expect(try store.streams().count == 2)
    }

    @Test("typed errors: missing folder, not a database, newer schema, unknown stream, wrong payload type")
    func errors() throws {
        let dir = try EventStoreTemporaryDirectory()
        let missing = dir.file("no/such/folder/events.sqlite")
        do {
            _ = try EventStore(path: missing)
            Issue.record("opened a store in a missing folder")
        } catch {
            guard case .cannotOpen(let path, let code, _) = error else { throw error }
            #expect(path == missing)
            #expect(code & 0xff == 14)  // SQLITE_CANTOPEN
        }

        let garbage = dir.file("garbage.sqlite")
        try Data(repeating: 0x5a, count: 4096).write(to: URL(fileURLWithPath: garbage))
        do {
            _ = try EventStore(path: garbage)
            Issue.record("opened a file that is not a database")
        } catch {
            guard case .cannotOpen(_, let code, _) = error else { throw error }
            #expect(code == 26)  // SQLITE_NOTADB
        }

        let newer = dir.file("newer.sqlite")
        do {
            let future = try EventStore(
                path: newer,
                laterMigrations: [(identifier: "v9-future", sql: "CREATE TABLE future (x INTEGER)")])
            _ = future
        }
        #expect(throws: EventStoreError.schemaTooNew(path: newer, unknownMigrations: ["v9-future"])) {
            _ = try EventStore(path: newer)
        }

        let store = try EventStore(path: dir.file("events.sqlite"))
        let foreign = StreamHandle(id: 42, sourceID: "x", name: "y", tableName: "events_42_y_x")
        #expect(throws: EventStoreError.unknownStream(id: 42, sourceID: "x", name: "y")) {
            try store.insert(foreign, deviceRecordID: "1", payload: 1)
        }
        #expect(throws: EventStoreError.unknownStream(id: 42, sourceID: "x", name: "y")) {
            _ = try store.count(in: foreign)
        }
        let scale = try store.register(EventStoreFixtures.scaleDescriptor())
        try store.insert(scale, deviceRecordID: "1", payload: ScaleReading(kg: 1, impedance: 2))
        do {
            _ = try store.events(in: scale, as: String.self)
            Issue.record("decoded an object as a String")
        } catch {
            guard case .decodingFailed(let type, let id, _) = error else { throw error }
            #expect(type == "String" && id == "1")
        }
        #expect(
            EventStoreError.sqlite(code: 13, message: "database or disk is full", sql: nil).description
                == "SQLite error 13: database or disk is full")
    }

    @Test("two stores on one file and two writer threads: every record once")
    func concurrentWriters() throws {
        let dir = try EventStoreTemporaryDirectory()
        let path = dir.file("events.sqlite")
        let first = try EventStore(path: path)
        let handle = try first.register(EventStoreFixtures.scaleDescriptor())
        let second = try EventStore(path: path)
        #expect(try second.register(EventStoreFixtures.scaleDescriptor()) == handle)
        let stores = [first, second]
        let failures = Mutex(0)
        // Each writer sends 0..<300 in batches of 20; both send the same records, as a device re-syncing would.
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for start in stride(from: 0, to: 300, by: 20) {
                let batch = (start..<start + 20).map { i in
                    StoredEvent(
                        deviceRecordID: "\(i)", deviceTime: Double(i), hostTime: 0,
                        payload: ScaleReading(kg: 50, impedance: i))
                }
                do { try stores[writer].insert(handle, batch: batch) } catch { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try first.count(in: handle) == 300)
        #expect(try second.deviceRecordIDs(in: handle).sorted { Int($0)! < Int($1)! } == (0..<300).map { "\($0)" })
    }

    @Test("readers see committed records while a writer inserts: counts only grow and end at the total")
    func readsDuringWrites() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("events.sqlite"))
        let handle = try store.register(EventStoreFixtures.scaleDescriptor())
        let total = 400
        let done = Mutex(false)
        let observed = Mutex<[Int]>([])
        let failures = Mutex(0)
        let readerStarted = DispatchSemaphore(value: 0)
        let readerFinished = DispatchSemaphore(value: 0)
        let reader = Thread {
            var first = true
            while true {
                let finished = done.withLock { $0 }
                do {
                    let count = try store.count(in: handle)
                    observed.withLock { $0.append(count) }
                } catch { failures.withLock { $0 += 1 } }
                if first {
                    readerStarted.signal()
                    first = false
                }
                if finished { break }
            }
            readerFinished.signal()
        }
        reader.start()
        readerStarted.wait()  // the writer starts once the reader is running
        for i in 0..<total {
            do {
                try store.insert(
                    handle, deviceRecordID: "\(i)", deviceTime: Double(i), payload: ScaleReading(kg: 60, impedance: i))
            } catch { failures.withLock { $0 += 1 } }
        }
        done.withLock { $0 = true }
        readerFinished.wait()
        let counts = observed.withLock { $0 }
        #expect(failures.withLock { $0 } == 0)
        #expect(counts.last == total)
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 })
        // The reader ran during the burst, not only after it.
        #expect(counts.filter { $0 > 0 && $0 < total }.count > 0)
        print("EventStore reads during a \(total)-insert burst: \(counts.count) counts, \(Set(counts).count) distinct")
    }
}

// MARK: - Fixtures shared by the EventStore suites

/// A fresh folder under the system's temporary directory, removed when the value goes away.
final class EventStoreTemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("axon-eventstore-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A scale's stored weighing: the payload the tests store.
struct ScaleReading: Codable, Sendable, Hashable {
    var kg: Double
    var impedance: Int
}

enum EventStoreFixtures {
    /// An irregular weight stream from one scale.
    static func scaleDescriptor(sourceID: String = "scale-0042", unit: String = "kg") -> StreamDescriptor {
        StreamDescriptor(
            name: "Weight", contentType: "Weight", channels: [ChannelInfo(label: "weight", unit: unit)],
            nominalRate: 0, format: .event, sourceID: sourceID, metadata: ["model": "BS-1", "firmware": "1.0.3"])
    }

    /// A band's sleep segments: a second stream, with a name and source id that need sanitizing.
    static let sleepDescriptor = StreamDescriptor(
        name: "Sleep segments (v2)", contentType: "Sleep", channels: [ChannelInfo(label: "stage", unit: "")],
        nominalRate: 0, format: .event, sourceID: "AA:BB:CC:DD:EE:FF")
}
