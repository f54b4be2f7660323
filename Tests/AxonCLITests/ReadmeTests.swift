import AxonEEG
import AxonRecording
import Foundation
import StreamTestSupport
import Testing

/// The README is the front door: short, and every command it shows exists. Each `axon …` line answers `--help` for
/// its subcommand (and the file-only commands run for real); each `make …` target is one `make -n` accepts; the
/// library example runs.
@Suite("README commands", .serialized)
struct ReadmeTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The command lines of the README's `sh` blocks, comments removed.
    static func commands() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var inShell = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = line == "```sh"
                continue
            }
            guard inShell else { continue }
            let command = line.split(separator: "#", maxSplits: 1).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if !command.isEmpty { lines.append(command) }
        }
        return lines
    }

    /// Runs a program; returns its status and standard output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = root
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func readmeIsShort() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let count = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(count <= 200, "README.md has \(count) lines")
    }

    @Test func everyAxonCommandExists() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let commands = try Self.commands().filter { $0.hasPrefix("axon ") }
        #expect(commands.count >= 10)
        for command in commands {
            // The subcommand path: the leading words whose `--help` is a subcommand's own (arguments such as PID names
            // give their command's help instead).
            var path: [String] = []
            for word in command.split(separator: " ").dropFirst().map(String.init) where !word.hasPrefix("-") {
                let (status, output) = try Self.run(axon, path + [word, "--help"])
                guard status == 0, output.contains("USAGE: axon \((path + [word]).joined(separator: " "))") else { break }
                path.append(word)
            }
            #expect(!path.isEmpty, "\(command): no such subcommand")
        }
    }

    @Test func fileCommandsRun() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        for command in try Self.commands()
        where command.hasPrefix("axon info datasets/") || command.hasPrefix("axon analyze datasets/") {
            let (status, output) = try Self.run(axon, command.split(separator: " ").dropFirst().map(String.init))
            #expect(status == 0 && !output.isEmpty, "\(command)")
        }
    }

    @Test func everyMakeTargetExists() throws {
        let commands = try Self.commands().filter { $0.hasPrefix("make ") }
        #expect(commands.count >= 5)
        for command in commands {
            let target = String(command.dropFirst("make ".count))
            let (status, _) = try Self.run("/usr/bin/make", ["-n", target])
            #expect(status == 0, "\(command)")
        }
    }

    /// The README's library example, line for line, on a file `axon record` made.
    @Test func libraryExampleRuns() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("session.edf").path
        let (status, _) = try Self.run(
            axon, ["record", "simulator", "--out", path, "--seconds", "80", "--fast", "--baseline", "0"])
        try #require(status == 0)

        let recording = try RecordingReader.read(path: path).selecting(channels: ["T3", "O1", "T4", "O2"])
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
        let session = try EEGSession(source: replay, configuration: .init(sampleRate: recording.sampleRate))
        session.startBaseline()
        try session.start()
        let spectra = Task {
            var count = 0
            for await frame in session.spectra where frame.channels.count == 4 { count += 1 }
            return count
        }
        var zones: [ActivityZone] = []
        for await indicator in session.indicators { zones.append(indicator.activity.zone) }
        #expect(await spectra.value >= 78)
        #expect(zones.count >= 2)  // after the 60 s baseline, every 10 s
    }
}
