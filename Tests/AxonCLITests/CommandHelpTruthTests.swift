import Foundation
import StreamTestSupport
import Testing

/// Commands say what they take: help that names options and commands which exist, and requirements that follow
/// what the operation needs.
@Suite("command help and requirements")
struct CommandHelpTruthTests {
    static func axon(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        return try AxonExecutable.run(axon, arguments)
    }

    /// The long options a help text names (`--port`, `--ble-seconds`, …).
    static func options(in text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "--[a-z][a-z0-9-]*")
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
    }

    @Test("obd scan's help names only options that obd scan or obd read take, and no command that does not exist")
    func obdScanHelpNamesWhatExists() throws {
        let scan = try Self.axon(["obd", "scan", "--help"])
        let read = try Self.axon(["obd", "read", "--help"])
        #expect(scan.status == 0 && read.status == 0)
        let usages = [scan.output, read.output].compactMap { $0.split(separator: "\n").first { $0.hasPrefix("USAGE:") } }
        let known = usages.reduce(into: Set<String>()) { $0.formUnion(Self.options(in: String($1))) }
            .union(["--help", "--version"])
        let named = Self.options(in: scan.output)
        #expect(named.subtracting(known).isEmpty, "named but taken by neither: \(named.subtracting(known))")
        #expect(named.contains("--ble"), "the help should say how read reaches a Bluetooth LE dongle")
        #expect(!scan.output.contains("`connect`"), "\(scan.output)")
    }

    @Test("band set schedule: writing needs --title, closing finds the entry by date and time")
    func scheduleTitleOnlyForWriting() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("axon-schedule-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: store) }
        let entry = ["band", "set", "schedule", "sim:band", "--out", store.path, "--date", "2026-12-01", "--time", "09:30"]
        let untitled = try Self.axon(entry)
        #expect(untitled.status == 64, "\(untitled.output)")
        #expect(untitled.output.contains("--title is needed to write a schedule"), "\(untitled.output)")
        let written = try Self.axon(entry + ["--title", "Dentist"])
        #expect(written.status == 0, "\(written.output)")
        let closed = try Self.axon(entry + ["--close"])
        #expect(closed.status == 0, "\(closed.output)")
    }

    @Test("a nested command's usage error prints that command's own usage line, not the root's", arguments: [
        (["band", "set", "alarm", "sim:band"], "Usage: axon band set alarm <device>"),
        (["obd", "read", "--tcp"], "Usage: axon obd read <pids>"),
        (["scale", "users", "sim:hs5", "bogus"], "Usage: axon scale users "),
    ])
    func nestedUsage(arguments: [String], usage: String) throws {
        let (status, output) = try Self.axon(arguments)
        #expect(status == 64, "\(output)")
        #expect(output.contains(usage), "\(output)")
        // The root command is demo: its usage is the one a misrouted error would print.
        #expect(!output.contains("Usage: axon demo"), "\(output)")
    }

    @Test("demo --seconds N plays N seconds of a recording, as it runs a device or the simulator for N seconds")
    func demoSecondsLimitsARecording() throws {
        let (status, output) = try Self.axon(["demo", "--fast", "--seconds", "20", "--baseline", "5"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("seconds 0–20 of the recording"), "\(output)")
        // The last spectrum row is within the 20 s, and the run did get there.
        let times = output.split(separator: "\n").compactMap { line -> Double? in
            let fields = line.split(separator: " ")
            return fields.count > 10 ? Double(fields[0]) : nil
        }
        #expect((times.max() ?? 0) >= 18 && (times.max() ?? 99) <= 20, "row times \(times)")
    }

    @Test("demo --fast with a live source is refused, not silently run in real time", arguments: [
        ["test-sequence:10", "--fast"], ["--test-sequence", "10", "--fast"], ["simulator", "--fast"],
    ])
    func fastNeedsARecording(arguments: [String]) throws {
        let demo = try Self.axon(["demo"] + arguments + ["--seconds", "2"])
        #expect(demo.status == 64, "\(demo.output)")
        #expect(demo.output.contains("--fast replays a recording"), "\(demo.output)")
    }

    @Test("band, researchbit and scale commands keep their records in the same default event store")
    func oneDefaultEventStore() throws {
        let commands = [
            ["band", "sync"], ["band", "set", "alarm"], ["researchbit", "scan"], ["researchbit", "fetch"],
            ["scale", "memory"], ["band", "records"], ["scale", "records"],
        ]
        var defaults: [String: [String]] = [:]
        for command in commands {
            let help = try Self.axon(command + ["--help"])
            #expect(help.status == 0, "\(command): \(help.output)")
            let flat = help.output.replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "  +", with: " ", options: .regularExpression)
            let regex = try NSRegularExpression(pattern: "--out <[a-z]+> .*?\\(default: ([^)]+\\.sqlite)\\)")
            let match = try #require(regex.firstMatch(in: flat, range: NSRange(flat.startIndex..., in: flat)), "\(command)")
            let store = String(flat[try #require(Range(match.range(at: 1), in: flat))])
            defaults[store, default: []].append(command.joined(separator: " "))
        }
        #expect(defaults.keys.sorted() == ["axon-events.sqlite"], "\(defaults)")
    }

    @Test("researchbit fetch of a device remembered by scan --sim, without bluetoothd, says what to run instead")
    func fetchAfterSimulatedScanExplains() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("axon-rb-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: store) }
        let scan = try Self.axon(["researchbit", "scan", "--sim", "--seconds", "0.5", "--out", store.path])
        #expect(scan.status == 0, "\(scan.output)")
        let noBus = "unix:path=/nonexistent/axon-no-bus"
        let fetch = try Self.axon(["researchbit", "fetch", "ResearchBIT-0001", "--out", store.path, "--bus", noBus])
        #expect(fetch.status == 1, "\(fetch.output)")
        #expect(fetch.output.contains("ResearchBIT-0001 (C0:FF:EE:00:00:20) is fetched through bluetoothd"), "\(fetch.output)")
        #expect(fetch.output.contains("axon researchbit fetch sim:researchbit"), "\(fetch.output)")
    }
}
