import AxonStreams
import Foundation
import Testing

@testable import AxonEventStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// "kill -9 during a burst of inserts" from outside: the parent starts this test binary again as a child that
/// runs only ``childBurst()``, reads the child's acknowledgements from its standard output and, after
/// `killAfter` of them, sends SIGKILL from the parent — the child learns nothing and is stopped wherever it is.
/// Then the parent checks the database against the fsynced acknowledgement file.
@Suite("EventStore: SIGKILL from the parent during an insert burst")
struct EventStoreKillTests {
    static let databaseVariable = "AXON_EVENTSTORE_KILL_CHILD_DATABASE"
    static let ackVariable = "AXON_EVENTSTORE_KILL_CHILD_ACKS"

    @Test("every record the child acknowledged before SIGKILL is in the database", arguments: [400, 1_200])
    func parentKillsChild(killAfter: Int) throws {
        let dir = try EventStoreTemporaryDirectory()
        let databasePath = dir.file("burst.sqlite")
        let ackPath = dir.file("acks.txt")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")

        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "EventStoreKillTests/childBurst"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = databasePath
        environment[Self.ackVariable] = ackPath
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try child.run()

        // Count "ACK " lines on the child's standard output until killAfter; then SIGKILL.
        var seen = 0
        var pending = Data()
        let reader = output.fileHandleForReading
        while seen < killAfter {
            let chunk = reader.availableData
            if chunk.isEmpty { break }  // the child ended by itself: the checks below fail
            pending.append(chunk)
            // Stops counting at killAfter: one read can hold more lines than that when the child runs ahead.
            while seen < killAfter, let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                if pending[pending.startIndex..<newline].starts(with: Array("ACK ".utf8)) { seen += 1 }
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        #expect(kill(child.processIdentifier, SIGKILL) == 0)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)

        let acknowledged = try String(contentsOfFile: ackPath, encoding: .utf8).split(separator: "\n").map(String.init)
        let store = try EventStore(path: databasePath)
        let stream = try #require(store.stream(sourceID: "band-kill", name: "Sync records"))
        let stored = Set(try store.deviceRecordIDs(in: stream))
        let lost = acknowledged.filter { !stored.contains($0) }
        print(
            "EventStore SIGKILL from parent after \(seen) acks read: \(acknowledged.count) inserts acknowledged, "
                + "\(stored.count) in the database, \(lost.count) acknowledged but missing")
        #expect(seen == killAfter)
        #expect(acknowledged.count >= killAfter)
        #expect(lost.isEmpty)
        #expect(stored.count >= acknowledged.count && stored.count <= acknowledged.count + 1)
        #expect(try store.integrityCheck() == ["ok"])
    }

    /// The child: runs only when the parent started it (the variables are set); inserts and acknowledges, one
    /// record per transaction, until killed.
    @Test(
        "child side of the SIGKILL test (runs only in the child)",
        .enabled(if: ProcessInfo.processInfo.environment[EventStoreKillTests.databaseVariable] != nil))
    func childBurst() throws {
        let environment = ProcessInfo.processInfo.environment
        let databasePath = try #require(environment[Self.databaseVariable])
        let ackPath = try #require(environment[Self.ackVariable])
        let store = try EventStore(path: databasePath)
        let stream = try store.register(
            StreamDescriptor(
                name: "Sync records", contentType: .activity, channels: [ChannelInfo(label: "steps", unit: "")],
                nominalRate: 0, format: .event, sourceID: "band-kill"))
        let ack = open(ackPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        try #require(ack >= 0)
        // Bounded: a child the parent never kills ends after this many and the parent's checks fail.
        for i in 0..<200_000 {
            let id = "rec-\(i)"
            #expect(
                try store.insert(stream, deviceRecordID: id, deviceTime: 1_763_800_000 + Double(i), payload: i)
                    == .inserted)
            let line = id + "\n"
            let written = line.withCString { write(ack, $0, strlen($0)) }
            try #require(written == line.utf8.count && fsync(ack) == 0)
            let message = "ACK " + line
            _ = message.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
        }
    }
}
