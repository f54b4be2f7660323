import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Faults around `axon record` writing EDF+: the disk filling up under it, and SIGTERM/SIGINT ending it.
@Suite(
    .enabled(if: EDFPeers.available, "needs .venv-peers (scripts/python-peers.sh, run by make test)"), .serialized)
struct RecordFaultTests {
    /// What `axon record` printed and how it ended.
    struct Outcome {
        var status: Int32
        var reason: Process.TerminationReason
        var output: String
    }

    /// Runs `axon record` with `arguments`; `fileSizeLimitKiB` caps its file size (the shell's `ulimit -f`, in 512-byte blocks).
    static func record(
        _ arguments: [String], fileSizeLimitKiB: Int? = nil, signal: (number: Int32, afterSeconds: Double)? = nil
    ) throws -> Outcome {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let process = Process()
        if let limit = fileSizeLimitKiB {
            // SIGXFSZ ignored, so the write fails with EFBIG instead of killing the recorder.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "trap '' XFSZ; ulimit -f \(limit * 2); exec \"$0\" \"$@\"", axon, "record"] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: axon)
            process.arguments = ["record"] + arguments
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        var lines: [String] = []
        if let signal {
            let recorded = readRecordProgress(pipe.fileHandleForReading, until: signal.afterSeconds) { lines.append($0) }
            #expect(recorded >= signal.afterSeconds)
            #expect(kill(process.processIdentifier, signal.number) == 0)
        }
        let rest = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, reason: process.terminationReason,
            output: (lines + [rest]).joined(separator: "\n"))
    }

    /// The header's record count, the bytes per record and the file's size.
    static func layout(_ path: String) throws -> (records: Int, header: Int, recordBytes: Int, size: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func field(_ offset: Int, _ width: Int) -> Int? {
            Int(String(decoding: bytes[offset..<(offset + width)], as: UTF8.self).trimmingCharacters(in: .whitespaces))
        }
        let signals = try #require(field(252, 4))
        let header = try #require(field(184, 8))
        var recordBytes = 0
        for signal in 0..<signals { recordBytes += 2 * (try #require(field(256 + 216 * signals + 8 * signal, 8))) }
        return (try #require(field(236, 8)), header, recordBytes, bytes.count)
    }

    /// pyedflib and MNE on a file of the simulator's 4 channels: exactly `seconds` of data, the start annotation.
    static func checkSimulatorFile(_ path: String, seconds: Int) throws -> (Int32, String) {
        try EDFPeers.check(
            file: path,
            expectation: .init(
                labels: ["T3", "O1", "T4", "O2"], units: Array(repeating: "uV", count: 4), rate: 250,
                duration: Double(seconds), annotations: [.init(onset: 0, text: "Recording starts")],
                annotation_margin: 0.01))
    }

    /// A small tmpfs mounted for the test, or nil where this process may not mount (not root, no CAP_SYS_ADMIN).
    static func mountSmallFileSystem(kibibytes: Int) throws -> URL? {
        let folder = try EDFPeers.temporaryFolder()
        let status = mount("tmpfs", folder.path, "tmpfs", 0, "size=\(kibibytes)k")
        if status != 0 {
            try? FileManager.default.removeItem(at: folder)
            return nil
        }
        return folder
    }

    /// The disk fills up mid-recording: a 64 KiB tmpfs (or, where the test may not mount, a 64 KiB file-size limit:
    /// EFBIG instead of ENOSPC). The EDF sink stops with the errno named on one line, the recording goes on to its
    /// end, `axon record` exits 1, the file is the header and whole records only, and pyedflib reads every record the
    /// header counts.
    @Test("a full disk stops the EDF sink with a clear error; the file keeps every record before it")
    func fullDisk() throws {
        let mounted = try Self.mountSmallFileSystem(kibibytes: 64)
        let folder = try mounted ?? EDFPeers.temporaryFolder()
        defer {
            if mounted != nil { umount2(folder.path, 0) }
            try? FileManager.default.removeItem(at: folder)
        }
        let path = folder.appendingPathComponent("full.edf").path
        let started = Date()
        let outcome = try Self.record(
            ["simulator", "--out", path, "--speed", "40", "--seconds", "60", "--baseline", "10",
             "--progress", "0.05"],
            fileSizeLimitKiB: mounted == nil ? 64 : nil)
        let seconds = Date().timeIntervalSince(started)
        #expect(outcome.reason == .exit && outcome.status == 1, "\(outcome.output)")
        let errno = mounted != nil ? "No space left on device (errno 28)" : "File too large (errno 27)"
        let failure = outcome.output.split(separator: "\n").first { $0.hasPrefix("failures: ") }
        #expect(failure?.contains("sink edf:\(path): write data record failed on \(path): \(errno)") == true,
                "\(outcome.output)")
        let layout = try Self.layout(path)
        // The recording itself went on after the EDF sink stopped: the other sinks (here the engine) kept receiving.
        let done = outcome.output.split(separator: "\n").first { $0.hasPrefix("done: ") }
        let delivered = done.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        #expect(delivered >= (layout.records + 20) * 250, "\(outcome.output)")
        #expect(layout.records >= 10, "header counts \(layout.records) records")
        // No partial record after the last whole one: the writer cut off what a failed write left.
        #expect(layout.size == layout.header + layout.records * layout.recordBytes)
        #expect(layout.size <= 64 * 1024)
        // The checker writes its expectation beside the file: check a copy on a disk with room.
        let roomy = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: roomy) }
        let copy = roomy.appendingPathComponent("full.edf").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let (status, report) = try Self.checkSimulatorFile(copy, seconds: layout.records)
        #expect(status == 0, "\(report)")
        print(
            "full disk (\(mounted != nil ? "64 KiB tmpfs" : "64 KiB file-size limit")): EDF sink stopped after "
                + "\(layout.records) records (\(layout.size) bytes, \(layout.size - layout.header - layout.records * layout.recordBytes) "
                + "bytes after them), \(delivered) samples delivered in all, exit \(outcome.status), "
                + "\(String(format: "%.1f", seconds)) s; "
                + "pyedflib reads \(layout.records) s")
    }

    /// SIGTERM and SIGINT end a recording cleanly: exit status 0, the final `done:` line, and a complete file — the
    /// header counts every record and nothing follows the last one.
    @Test("SIGTERM and SIGINT close the EDF+ file complete; axon record exits 0", arguments: [SIGTERM, SIGINT])
    func stopSignal(_ number: Int32) throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stopped.edf").path
        let sent = Date()
        let outcome = try Self.record(
            ["simulator", "--out", path, "--speed", "20", "--baseline", "5", "--indicator", "2",
             "--progress", "0.05"],
            signal: (number, 12))
        let seconds = Date().timeIntervalSince(sent)
        #expect(outcome.reason == .exit && outcome.status == 0, "\(outcome.output)")
        let done = outcome.output.split(separator: "\n").first { $0.hasPrefix("done: ") }
        #expect(done != nil, "\(outcome.output)")

        let layout = try Self.layout(path)
        #expect(layout.records >= 12)
        #expect(layout.size == layout.header + layout.records * layout.recordBytes, "a partial record after the last")
        #expect(done?.contains("\(layout.records) records") == true, "\(done ?? "")")
        let (status, report) = try Self.checkSimulatorFile(path, seconds: layout.records)
        #expect(status == 0, "\(report)")
        print(
            "\(number == SIGTERM ? "SIGTERM" : "SIGINT") after 12 s of data: exit \(outcome.status), \(layout.records) "
                + "records, \(layout.size) bytes (complete), run \(String(format: "%.1f", seconds)) s")
    }
}
