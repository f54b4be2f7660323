import AxonStreams
import Foundation
import Testing

@testable import AxonEventStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The acceptance test "kill -9 during a burst of inserts loses none that were reported as stored".
///
/// A child process (a Swift Testing exit test: this test binary started again) inserts records in a tight loop
/// and, after each insert returns, appends the record's id to an acknowledgement file and `fsync`s it — what an
/// adapter does before acknowledging a device. Once it has acknowledged `killAfter` records, a second thread
/// spins for `jitter` microseconds (a busy wait on the clock, not a sleep) and sends SIGKILL to its own process
/// while the insert thread keeps going, so the kill lands wherever the burst is (mostly inside SQLite's commit
/// and `fsync`, which is where the time goes). The parent then opens the database and checks that
/// every acknowledged id is there and that SQLite's integrity check passes.
@Suite("EventStore: kill -9 during an insert burst")
struct EventStoreCrashTests {
    /// Kill points, spin before the kill and batch sizes: single inserts and batches of 25 (acknowledged after
    /// the batch returns).
    @Test(
        "every acknowledged record survives SIGKILL and the file passes integrity_check",
        arguments: [
            (killAfter: 237, jitter: 0, batchSize: 1), (killAfter: 1_499, jitter: 1_300, batchSize: 1),
            (killAfter: 1_000, jitter: 700, batchSize: 25),
        ])
    func killNineLosesNoAcknowledgedRecord(killAfter: Int, jitter: Int, batchSize: Int) async throws {
        let dir = try EventStoreTemporaryDirectory()
        let databasePath = dir.file("burst.sqlite")
        let ackPath = dir.file("acks.txt")

        await #expect(processExitsWith: .signal(SIGKILL)) {
            [databasePath = databasePath as String, ackPath = ackPath as String, killAfter, jitter, batchSize] in
            try EventStoreCrashTests.insertUntilKilled(
                databasePath: databasePath, ackPath: ackPath, killAfter: killAfter, jitter: jitter,
                batchSize: batchSize)
        }

        let acknowledged = try String(contentsOfFile: ackPath, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let store = try EventStore(path: databasePath)
        let stream = try #require(store.stream(sourceID: "band-crash", name: "Sync records"))
        let stored = Set(try store.deviceRecordIDs(in: stream))
        let lost = acknowledged.filter { !stored.contains($0) }
        print(
            "EventStore kill -9 (batch \(batchSize), kill \(jitter) µs after ack \(killAfter)): "
                + "\(acknowledged.count) inserts acknowledged, \(stored.count) in "
                + "the database, \(lost.count) acknowledged but missing")
        #expect(acknowledged.count >= killAfter)
        #expect(lost.isEmpty)
        // Nothing is stored that was not sent, and at most the batch in flight was stored without its ack.
        #expect(stored.count >= acknowledged.count)
        #expect(stored.count <= acknowledged.count + batchSize)
        #expect(stored.allSatisfy { $0.hasPrefix("rec-") })
        #expect(try store.integrityCheck() == ["ok"])
        #expect(try store.insert(stream, deviceRecordID: acknowledged.last!, payload: 0) != .inserted)
    }

    /// The child's side: open, register, then insert and acknowledge until killed.
    static func insertUntilKilled(
        databasePath: String, ackPath: String, killAfter: Int, jitter: Int, batchSize: Int
    ) throws {
        let store = try EventStore(path: databasePath)
        let stream = try store.register(
            StreamDescriptor(
                name: "Sync records", contentType: .activity, channels: [ChannelInfo(label: "steps", unit: "")],
                nominalRate: 0, format: .event, sourceID: "band-crash"))
        let ack = open(ackPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard ack >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let reached = DispatchSemaphore(value: 0)
        let killer = Thread {
            reached.wait()
            let clock = ContinuousClock()
            let deadline = clock.now + .microseconds(jitter)
            while clock.now < deadline {}
            kill(getpid(), SIGKILL)
        }
        killer.start()
        var next = 0
        // Bounded: if SIGKILL never came, the child exits normally and the exit test fails.
        while next < killAfter + 200_000 {
            let batch = (next..<next + batchSize).map { i in
                StoredEvent(deviceRecordID: "rec-\(i)", deviceTime: 1_763_800_000 + Double(i), payload: i * 7)
            }
            let outcomes = try store.insert(stream, batch: batch)
            guard outcomes.allSatisfy({ $0 == .inserted }) else {
                throw EventStoreError.invalidRecord(
                    deviceRecordID: "rec-\(next)", reason: "outcomes \(outcomes)")
            }
            let line = batch.map { $0.deviceRecordID + "\n" }.joined()
            let written = line.utf8CString.withUnsafeBufferPointer { write(ack, $0.baseAddress, $0.count - 1) }
            guard written == line.utf8.count, fsync(ack) == 0 else { throw POSIXError(.EIO) }
            let before = next
            next += batchSize
            if before < killAfter && next >= killAfter { reached.signal() }
        }
    }
}
