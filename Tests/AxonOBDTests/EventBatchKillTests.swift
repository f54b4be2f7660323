import AxonEventStore
import AxonOBD
import AxonRecording
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Acceptance 5: with auto-acknowledgement off, a process SIGKILLed after a batch was delivered and before it was
/// acknowledged delivers the same batch (same id, same events) after a restart; once acknowledged, never again.
/// The parent starts this test binary again as the child, which runs only ``child()``.
@Suite("OBD event batches survive SIGKILL until acknowledged", .serialized)
struct EventBatchKillTests {
    static let databaseVariable = "AXON_OBD_KILL_CHILD_DATABASE"
    static let acknowledgeVariable = "AXON_OBD_KILL_CHILD_ACKNOWLEDGE"

    @Test("kill -9 before acknowledging: same batch again; after acknowledging: nothing")
    func killBeforeAcknowledging() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-obd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("events.sqlite").path

        let first = try runChild(database: database, acknowledge: false, kill: true)
        let second = try runChild(database: database, acknowledge: false, kill: true)
        let acknowledged = try runChild(database: database, acknowledge: true, kill: false)
        let after = try runChild(database: database, acknowledge: false, kill: false)
        print("OBD batches across SIGKILL: \(first) | \(second) | \(acknowledged) | \(after)")
        #expect(first.hasPrefix("BATCH batch-1 hardBraking@"))
        #expect(first.split(separator: " ").count == 4)  // BATCH, id, two event ids
        #expect(second == first)
        #expect(acknowledged == first.replacingOccurrences(of: "BATCH", with: "ACKED"))
        #expect(after == "NONE")
        let log = try OBDEventLog(store: EventStore(path: database), sourceID: "kill-test")
        #expect(try log.allEvents().count == 2)  // re-detected events were not stored twice
        #expect(try log.deliveredBatches().map(\.acknowledged) == [true])
    }

    /// Starts the child, reads its one line, then SIGKILLs it (`kill`) or waits for it to end.
    func runChild(database: String, acknowledge: Bool, kill killIt: Bool) throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "EventBatchKillTests/child"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = database
        environment[Self.acknowledgeVariable] = acknowledge ? "1" : nil
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        var pending = Data()
        var line = ""
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            let text = String(decoding: pending, as: UTF8.self)
            if let found = text.split(separator: "\n").first(where: {
                $0.hasPrefix("BATCH ") || $0.hasPrefix("ACKED ") || $0 == "NONE"
            }) {
                line = String(found)
                break
            }
        }
        if killIt {
            #expect(kill(child.processIdentifier, SIGKILL) == 0)
            child.waitUntilExit()
            #expect(child.terminationReason == .uncaughtSignal)
        } else {
            child.waitUntilExit()
        }
        return line
    }

    /// The child: detects the trace's events into the log, connects nothing, delivers pending batches with
    /// auto-acknowledgement off and prints the first; then waits to be killed, or acknowledges it when told to.
    @Test(
        "child side of the SIGKILL test (runs only in the child)",
        .enabled(if: ProcessInfo.processInfo.environment[EventBatchKillTests.databaseVariable] != nil))
    func child() throws {
        let environment = ProcessInfo.processInfo.environment
        let database = try #require(environment[Self.databaseVariable])
        let log = try OBDEventLog(store: EventStore(path: database), sourceID: "kill-test")
        var detector = DrivingEventDetector()
        for sample in try SpeedTrace.load() {
            for event in detector.add(time: sample.time, speedKmh: sample.kmh) { try log.record(event) }
        }
        let gateway = authenticatedGateway(eventLog: log)
        gateway.setAutoAcknowledgement(false)
        guard let batch = gateway.deliverPendingBatches().first else {
            emit("NONE")
            return
        }
        let ids = batch.events.map(\.id).joined(separator: " ")
        if environment[Self.acknowledgeVariable] != nil {
            try gateway.acknowledge(batch.acknowledgementID)
            emit("ACKED \(batch.acknowledgementID) \(ids)")
            return
        }
        emit("BATCH \(batch.acknowledgementID) \(ids)")
        // Bounded: a child the parent never kills ends after a minute and the parent's checks fail.
        Thread.sleep(forTimeInterval: 60)
    }

    private func emit(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
    }
}
