import Foundation
import StreamTestSupport
import Testing

/// The rules every `axon` command keeps, checked on every subcommand (the table must list each one `--help`
/// shows): a usage mistake exits 64 with the usage; a failure while running exits 1 with one line and no usage; a
/// negative value is taken where one makes sense; `--version` answers; a misspelt name gets "did you mean".
@Suite("axon's exit codes and errors, on every subcommand")
struct CommandLineRulesTests {
    /// A subcommand and what makes it fail at run time (a file, port, bus or broker that is not there), and a
    /// negative value it takes, if any.
    struct Row: CustomTestStringConvertible, Sendable {
        let path: [String]
        let failing: [String]?
        let negative: [String]?
        var testDescription: String { "axon " + path.joined(separator: " ") }
    }

    static let missing = "/nonexistent-axon-test"
    static let noBus = "unix:path=\(missing)/bus"
    static let noBroker = "nats://127.0.0.1:1"
    /// An event store that cannot be created (the commands' default would land in the working folder).
    static let store = "\(missing)/e.sqlite"

    /// Every subcommand. `failing: nil` only where nothing outside the command can be missing.
    static let rows: [Row] = [
        Row(path: ["demo"], failing: ["\(missing)/a.edf"], negative: nil),
        Row(path: ["analyze"], failing: ["\(missing)/a.edf"], negative: nil),
        Row(path: ["record"], failing: ["\(missing)/a.edf", "--out", "\(missing)/b.edf"],
            negative: ["simulator", "--fast", "--seconds", "0.2", "--range", "-500,500", "--out", "OUT.edf"]),
        Row(path: ["replay"], failing: ["\(missing)/a.edf"], negative: nil),
        Row(path: ["info"], failing: ["\(missing)/a.edf"], negative: nil),
        Row(path: ["convert"], failing: ["\(missing)/a.edf", "\(missing)/b.csv"], negative: nil),
        Row(path: ["plot"], failing: ["\(missing)/a.edf", "--out", "\(missing)/b.svg"], negative: nil),
        Row(path: ["stream"], failing: nil, negative: ["--seconds", "0.5", "--drift-ppm", "-50"]),
        Row(path: ["bench"], failing: nil, negative: nil),
        Row(path: ["scan"], failing: ["--bus", noBus], negative: ["--bus", noBus, "--rssi", "-70"]),
        // A listing: finding no dongle (or no radio to ask) is its answer, printed, not a failure.
        Row(path: ["obd", "scan"], failing: nil, negative: nil),
        Row(path: ["obd", "read"], failing: ["speed", "--port", "\(missing)/tty"], negative: nil),
        Row(path: ["obd", "watch"], failing: ["speed", "--port", "\(missing)/tty"], negative: nil),
        Row(path: ["obd", "log"], failing: ["--tcp", "127.0.0.1:1", "--store", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["obd", "events"], failing: ["--store", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["scale", "measure"], failing: ["ble:X", "--bus", noBus], negative: nil),
        Row(path: ["scale", "memory"], failing: ["sim:hs5", "--out", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["scale", "records"], failing: ["--out", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["scale", "users"], failing: ["ble:X", "list", "--bus", noBus], negative: nil),
        Row(path: ["band", "sync"], failing: ["sim:band", "--out", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["band", "records"], failing: ["--out", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["band", "set", "alarm"], failing: ["ble:X", "--bus", noBus, "--out", store, "--id", "1", "--time", "07:00"],
            negative: nil),
        Row(path: ["band", "set", "sedentary"], failing: ["ble:X", "--bus", noBus, "--out", store, "--start", "9", "--end", "17"],
            negative: nil),
        Row(path: ["band", "set", "schedule"],
            failing: ["ble:X", "--bus", noBus, "--out", store, "--date", "2026-12-01", "--time", "09:00", "--title", "t"], negative: nil),
        Row(path: ["band", "set", "targets"], failing: ["ble:X", "--bus", noBus, "--out", store, "walk=300"], negative: nil),
        Row(path: ["band", "set", "options"], failing: ["ble:X", "--bus", noBus, "--out", store], negative: nil),
        Row(path: ["band", "set", "personal"],
            failing: ["ble:X", "--bus", noBus, "--out", store, "--gender", "woman", "--height", "170", "--weight", "60", "--steps",
                      "8000", "--age", "30"], negative: nil),
        Row(path: ["band", "set", "push"], failing: ["ble:X", "--bus", noBus, "--out", store, "--text", "hi"], negative: nil),
        Row(path: ["band", "set", "camera"], failing: ["ble:X", "--bus", noBus, "--out", store], negative: nil),
        Row(path: ["band", "set", "autosync"], failing: ["ble:X", "hr", "--bus", noBus, "--out", store], negative: nil),
        Row(path: ["band", "set", "reset"], failing: ["ble:X", "--bus", noBus, "--out", store], negative: nil),
        Row(path: ["band", "schedules"], failing: ["ble:X", "--bus", noBus, "--out", store], negative: nil),
        Row(path: ["band", "hr"], failing: ["ble:X", "--bus", noBus], negative: nil),
        Row(path: ["band", "pairing"], failing: ["ble:X", "--bus", noBus], negative: nil),
        Row(path: ["researchbit", "scan"], failing: ["--bus", noBus, "--out", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["researchbit", "fetch"], failing: ["X", "--out", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["researchbit", "pair"], failing: ["X", "--out", "\(missing)/e.sqlite"], negative: nil),
        Row(path: ["simulate-cyton"], failing: ["\(missing)/a.txt"], negative: nil),
        Row(path: ["impedance"], failing: ["ganglion:X", "--bus", noBus], negative: nil),
        Row(path: ["sensor", "check"], failing: ["\(missing)/sensor.json"], negative: nil),
        Row(path: ["lsl", "list"], failing: ["--lsl-config", "\(missing)/lsl.cfg"], negative: nil),
        Row(path: ["lsl", "record"], failing: ["--all", "--out", "\(missing)/a.xdf", "--lsl-config", "\(missing)/lsl.cfg"],
            negative: nil),
        Row(path: ["fleet", "ingest"], failing: ["\(missing)/a.edf", "--device-id", "d1", "--nats", noBroker],
            negative: nil),
        Row(path: ["fleet", "simulate"], failing: ["--nats", noBroker], negative: nil),
        Row(path: ["fleet", "worker"], failing: ["--nats", noBroker], negative: nil),
        Row(path: ["fleet", "results"], failing: ["--nats", noBroker], negative: nil),
        Row(path: ["fleet", "status"], failing: ["--nats", noBroker], negative: nil),
        Row(path: ["fleet", "event"], failing: ["--sensor", "s1", "--id", "e1", "--kind", "button", "--nats", noBroker],
            negative: nil),
        Row(path: ["fleet", "events"], failing: ["--nats", noBroker], negative: nil),
        Row(path: ["view"], failing: ["\(missing)/a.edf"], negative: nil),
        Row(path: ["view-bench"], failing: ["\(missing)/a.edf"], negative: nil),
    ]

    static func axon(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        return try AxonExecutable.run(axon, arguments)
    }

    /// The subcommand names a command's `--help` lists.
    static func subcommands(of path: [String]) throws -> [String] {
        let help = try axon(path + ["--help"]).output
        guard let start = help.range(of: "SUBCOMMANDS:") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first,
                word != "See"
            else { return nil }
            return String(word)
        }
    }

    @Test("the table lists every subcommand --help shows, down to the leaves")
    func tableIsComplete() throws {
        var leaves: [[String]] = []
        func walk(_ path: [String]) throws {
            let children = try Self.subcommands(of: path)
            if children.isEmpty { return leaves.append(path) }
            for child in children where child != "help" { try walk(path + [child]) }
        }
        try walk([])
        #expect(Set(leaves) == Set(Self.rows.map(\.path)), "missing rows: \(Set(leaves).subtracting(Self.rows.map(\.path)))")
    }

    @Test("a usage mistake: exit 64, the error and the command's usage", arguments: rows)
    func usageMistake(_ row: Row) throws {
        let (status, output) = try Self.axon(row.path + ["--no-such-option"])
        #expect(status == 64, "\(output)")
        #expect(output.contains("Usage: axon \(row.path.joined(separator: " "))"), "\(output)")
    }

    @Test("a failure while running: exit 1, one line naming the command, no usage", arguments: rows)
    func runtimeFailure(_ row: Row) throws {
        guard let failing = row.failing else { return }
        let (status, output) = try Self.axon(row.path + failing)
        let lines = output.split(separator: "\n")
        #expect(status == 1, "\(output)")
        #expect(lines.count == 1, "\(output)")
        #expect(lines.first?.hasPrefix("axon") == true, "\(output)")
        #expect(!output.contains("Usage:"), "\(output)")
    }

    @Test("a negative value where one makes sense is a value, not an option", arguments: rows.filter { $0.negative != nil })
    func negativeValue(_ row: Row) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = row.negative!.map { $0 == "OUT.edf" ? folder.appendingPathComponent("out.edf").path : $0 }
        let (status, output) = try Self.axon(row.path + arguments)
        #expect(status != 64, "\(output)")
        #expect(!output.contains("Missing value"), "\(output)")
        #expect(!output.contains("Unknown option"), "\(output)")
    }

    @Test("--version answers on every command", arguments: rows)
    func version(_ row: Row) throws {
        let (status, output) = try Self.axon(row.path + ["--version"])
        #expect(status == 0, "\(output)")
        #expect(output.hasPrefix("axon "), "\(output)")
    }

    @Test("a misspelt name gets 'did you mean' the right command, exit 64", arguments: rows)
    func typo(_ row: Row) throws {
        var word = Array(row.path.last!)
        if word.count > 2 { word.swapAt(1, 2) } else { word.swapAt(0, 1) }
        let misspelt = Array(row.path.dropLast()) + [String(word)]
        let (status, output) = try Self.axon(misspelt + ["--out", "x"])
        #expect(status == 64, "\(output)")
        #expect(output.contains("did you mean `axon \(row.path.joined(separator: " "))`?"), "\(output)")
    }

    @Test("the issue's typo: axon recrod --out x suggests record instead of a demo option")
    func issueTypo() throws {
        let (status, output) = try Self.axon(["recrod", "--out", "x"])
        #expect(status == 64)
        #expect(output.contains("did you mean `axon record`?"), "\(output)")
        #expect(!output.contains("--bus"), "\(output)")
    }

    @Test("a binary file's bytes never reach the terminal: the error shows them escaped")
    func binaryFileError() throws {
        let (status, output) = try Self.axon(["info", "/bin/sh"])
        #expect(status == 1)
        let controls = output.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }
        #expect(controls.isEmpty, "\(output)")
        #expect(!output.contains("\u{FFFD}"), "\(output)")
        #expect(output.contains("\\x7FELF"), "\(output)")
    }

    @Test("an unknown SOURCE kind lists every kind Axon takes")
    func unknownSourceKind() throws {
        let (status, output) = try Self.axon(["demo", "musee:Muse-41D2"])
        #expect(status == 64)
        for kind in ["simulator", "test-sequence:HZ", "cyton:", "muse:", "ganglion:", "ble:", "lsl:"] {
            #expect(output.contains(kind), "\(kind): \(output)")
        }
    }

    @Test("old spellings still work for a release, with a line saying what replaces them")
    func deprecatedSpellings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("old.csv").path
        let (status, output) = try Self.axon(
            ["record", "--source", "simulator", "--duration", "0.2", "--fast", "--out", out])
        #expect(status == 0, "\(output)")
        #expect(output.contains("--source is deprecated"), "\(output)")
        #expect(output.contains("--duration is deprecated"), "\(output)")
        #expect(FileManager.default.fileExists(atPath: out))
    }
}
