import Foundation
import StreamTestSupport
import Testing

/// Files `axon` creates are its user's alone (0600) unless `--mode` says otherwise (issue 38): EEG is health data, and
/// a umask of 022 — most systems' default — would leave every recording readable by every local user. Each command
/// runs under `umask 022` here, so the 0600 is Axon's doing, not the test's.
@Suite("Files Axon creates: mode 0600 unless --mode")
struct FileModeTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("axon-mode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `axon ARGUMENTS` from `/bin/sh` under `umask 022`; returns status and output.
    static func axon(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let quoted = ([axon] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try AxonExecutable.run("/bin/sh", ["-c", "umask 022; exec " + quoted.joined(separator: " ")])
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test("a recording in each format, and its conversion, are 0600", arguments: ["edf", "bdf", "csv", "xdf"])
    func recordingsAreTheOwnersAlone(format: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("run.\(format)").path
        let recorded = try Self.axon(["record", "simulator", "--fast", "--seconds", "1", "--out", out])
        #expect(recorded.status == 0, "\(recorded.output)")
        #expect(try Self.mode(out) == 0o600)
        if format != "xdf" {
            let converted = folder.appendingPathComponent("converted.csv").path
            let result = try Self.axon(["convert", out, converted])
            #expect(result.status == 0, "\(result.output)")
            #expect(try Self.mode(converted) == 0o600)
        }
    }

    @Test("--mode 0640 lets the group read; --mode outside 0644 is refused before anything is written")
    func modeOptionWidensWithinLimits() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("shared.edf").path
        let base = ["record", "simulator", "--fast", "--seconds", "1", "--out", out]
        let shared = try Self.axon(base + ["--mode", "0640"])
        #expect(shared.status == 0, "\(shared.output)")
        #expect(try Self.mode(out) == 0o640)
        for bad in ["0755", "0666", "rw", "9", ""] {
            let other = folder.appendingPathComponent("bad.edf").path
            let refused = try Self.axon(["record", "simulator", "--fast", "--seconds", "1", "--out", other,
                "--mode", bad])
            #expect(refused.status != 0, "--mode \(bad)")
            #expect(refused.output.contains("--mode"), "\(refused.output)")
            #expect(!FileManager.default.fileExists(atPath: other), "--mode \(bad)")
        }
    }
}
