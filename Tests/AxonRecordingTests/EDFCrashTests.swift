import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Acceptance 2: `axon record` killed with SIGKILL leaves an EDF+ file that pyedflib and MNE open, holding at least
/// 28 s of the 30 s written and every annotation written up to then.
@Suite(.enabled(if: EDFPeers.available, "needs .venv-peers (scripts/python-peers.sh, run by make test)"))
struct EDFCrashTests {
    @Test func sigkillAfterThirtySecondsLeavesAValidFile() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("killed.edf").path

        // The simulator at 20× real time: 30 s of data in 1.5 s; zones every 5 s after a 10 s baseline.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: axon)
        process.arguments = [
            "record", "simulator", "--out", path, "--speed", "20", "--baseline", "10", "--indicator", "5",
            "--progress", "0.05",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()

        // Read progress lines until 30 s have reached the file, collecting the annotations announced on the way.
        var annotations = [EDFPeers.Annotation(onset: 0, text: "Recording starts")]
        let recorded = readRecordProgress(pipe.fileHandleForReading, until: 30) { line in
            if line.hasPrefix("annotated \""), let close = line.lastIndex(of: "\"") {
                let text = String(line[line.index(line.startIndex, offsetBy: 11)..<close])
                let onset = Double(line[close...].split(separator: " ")[2]) ?? -1
                annotations.append(.init(onset: onset, text: text))
            }
        }
        #expect(kill(process.processIdentifier, SIGKILL) == 0)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
        #expect(recorded >= 30)
        #expect(annotations.count >= 5, "zones at 10, 15, 20, 25 s: \(annotations)")

        // The header counts the records flushed before the kill.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let countField = String(decoding: bytes[236..<244], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        let count = try #require(Int(countField))
        #expect(count >= 28, "header counts \(count) records")

        let (status, output) = try EDFPeers.check(
            file: path,
            expectation: .init(
                labels: ["T3", "O1", "T4", "O2"], units: Array(repeating: "uV", count: 4), rate: 250, min_duration: 28,
                annotations: annotations, annotation_margin: 2))
        #expect(status == 0, "\(output)")
        print("killed at \(recorded) s recorded; header counts \(count) records\n\(output)")
    }
}
