import AxonLSL
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

/// Several LSL streams into one XDF file with the real `axon` executable, as LabRecorder records them: one pylsl
/// process with three outlets (8-channel float32 EEG at 250 Hz, 3-channel double64 at 50 Hz, an irregular string
/// markers stream), each pushing a counter, and the file read back by pyxdf.
@Suite("LSL streams recorded into one XDF file", .serialized, .enabled(if: LSLPeer.available))
struct LSLXDFRecordTests {
    static let seconds = 3.0

    /// One stream as scripts/check-xdf.py reports it.
    struct Checked: Decodable {
        var type: String
        var channel_count: Int
        var nominal_srate: Double
        var channel_format: String
        var source_id: String
        var labels: [String]
        var count: Int
        var footer_count: Int?
        var timestamps: [Double]?
        var clock_times: [Double]
        var clock_values: [Double]
        var footer_offsets: Int
        var footer_first: Double?
        var footer_last: Double?
        /// Every numeric sample (null for NaN, as feature streams of other processes the recording may take have).
        var values: [[Double?]]?
        var strings: [[String]]?
    }

    /// pyxdf's reading of `path`, without and with its clock synchronisation.
    static func pyxdf(_ path: String, synchronize: Bool) throws -> [String: Checked] {
        let checker = Process()
        checker.executableURL = URL(fileURLWithPath: LSLPeer.python)
        checker.arguments =
            [LSLPeer.root.appendingPathComponent("scripts/check-xdf.py").path, path, "--values", "--synchronize"]
            .dropLast(synchronize ? 0 : 1)
        let pipe = Pipe()
        checker.standardOutput = pipe
        try checker.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        checker.waitUntilExit()
        try #require(checker.terminationStatus == 0)
        return try JSONDecoder().decode([String: Checked].self, from: output)
    }

    /// Starts the three outlets, runs `axon ARGUMENTS` (given the file's path) and checks the file with pyxdf;
    /// `stop` ends the recording with a signal instead of `--seconds` once it has recorded that long.
    static func recordSession(stop signal: Int32? = nil, _ arguments: (_ prefix: String, _ out: String) -> [String])
        throws
    {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let prefix = "axon-rec-\(UUID().uuidString.prefix(8))"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(prefix)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("session.xdf").path
        let peer = try LSLPeer.Process(["session", "--prefix", prefix, "--seconds", "60"])
        // The outlets push for a minute, longer than any recording here; killed once the file is read.
        defer {
            kill(peer.process.processIdentifier, SIGKILL)
            peer.process.waitUntilExit()
        }
        try #require(peer.waitForLine(containing: "ready", timeout: 30) != nil)
        let length = signal == nil ? ["--seconds", "\(seconds)"] : []
        let (status, output) = try run(
            axon, arguments(prefix, out) + ["--out", out, "--lsl-config", LSLPeer.configuration] + length, stop: signal)
        print(output)
        try #require(status == 0, "\(output)")
        #expect(output.contains(signal == nil ? "for \(seconds) s" : "until SIGINT/SIGTERM"), "\(output)")
        for suffix in ["EEG", "Aux", "Markers"] { #expect(output.contains("\(prefix)-\(suffix)  type"), "\(output)") }

        let stored = try pyxdf(out, synchronize: false)
        let synchronized = try pyxdf(out, synchronize: true)
        let streams = [
            (name: "\(prefix)-EEG", type: "EEG", channels: 8, rate: 250.0, format: "float32"),
            (name: "\(prefix)-Aux", type: "Aux", channels: 3, rate: 50.0, format: "double64"),
            (name: "\(prefix)-Markers", type: "Markers", channels: 1, rate: 0.0, format: "string"),
        ]
        for expected in streams {
            let stream = try #require(stored[expected.name], "\(stored.keys)")
            #expect(stream.type == expected.type)
            #expect(stream.channel_count == expected.channels)
            #expect(stream.nominal_srate == expected.rate)
            #expect(stream.channel_format == expected.format)
            #expect(stream.source_id == "\(expected.name)-source")
            // The footer counts what the file holds.
            #expect(stream.footer_count == stream.count)
            #expect(stream.footer_first == stream.timestamps?.first && stream.footer_last == stream.timestamps?.last)
            // Samples close to rate × seconds: the recording's seconds (what came before the start is dropped),
            // plus what liblsl held at the stop.
            let perSecond = expected.rate > 0 ? expected.rate : 4
            #expect(
                Double(stream.count) >= 0.9 * perSecond * seconds
                    && Double(stream.count) <= perSecond * (seconds + 1), "\(expected.name): \(stream.count)")
            // Every sample is the outlet's, in order, none missing: the counter goes up by one.
            if let values = stream.values {
                #expect(stream.labels == (1...expected.channels).map { "\(expected.type)\($0)" })
                let first = (values.first?.first).flatMap { $0 }.map { $0 / 10 } ?? -1
                let broken = values.enumerated().filter { index, row in
                    row != (0..<expected.channels).map { 10 * (first + Double(index)) + Double($0) }
                }
                #expect(broken.isEmpty, "\(expected.name): \(broken.prefix(3))")
            } else {
                let strings = try #require(stream.strings)
                let first = Int(strings.first?.first?.split(separator: " ").last ?? "") ?? -1
                #expect(strings == (0..<strings.count).map { ["marker \(first + $0)"] })
            }
            // The stored timestamps are the outlet's own (start + k / rate, markers every 0.25 s), neither corrected
            // nor dejittered.
            let stamps = try #require(stream.timestamps)
            let step = expected.rate > 0 ? 1 / expected.rate : 0.25
            let uneven = zip(stamps.dropFirst(), stamps).map { $0 - $1 }.filter { abs($0 - step) > 1e-6 }
            #expect(uneven.isEmpty, "\(expected.name): \(uneven.prefix(3))")
            // Clock offsets: at least one per stream, as many in the footer, microseconds between two processes of
            // one machine.
            #expect(stream.clock_values.count >= 1)
            #expect(stream.footer_offsets == stream.clock_values.count)
            #expect(stream.clock_values.allSatisfy { abs($0) < 1e-3 }, "\(stream.clock_values)")
            // pyxdf's clock synchronisation adds them back: every timestamp moves by an offset (one offset: exactly
            // that one; several: a line through them, within their range and its width again).
            let synced = try #require(synchronized[expected.name]?.timestamps)
            #expect(synced.count == stamps.count)
            let spread = (stream.clock_values.max() ?? 0) - (stream.clock_values.min() ?? 0)
            let low = (stream.clock_values.min() ?? 0) - spread - 1e-9
            let high = (stream.clock_values.max() ?? 0) + spread + 1e-9
            let moved = zip(synced, stamps).map { $0 - $1 }
            #expect(moved.allSatisfy { $0 >= low && $0 <= high }, "\(moved.min() ?? 0) … \(moved.max() ?? 0)")
            print(
                "\(expected.name): \(stream.count) samples; clock offsets \(stream.clock_values.map { $0 * 1e6 }) µs "
                    + "collected at \(stream.clock_times)")
        }
    }

    /// Runs `executable`; with `stop`, sends that signal once the progress lines say `seconds` have been recorded.
    static func run(_ executable: String, _ arguments: [String], stop signal: Int32?) throws -> (Int32, String) {
        guard let signal else { return try AxonExecutable.run(executable, arguments) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let collected = ThreadLocked("")
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            collected.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        // One progress line a second.
        _ = waitUntil(seconds: 60, interval: 0.02, onTimeout: .returnFalse) {
            collected.withLock { $0.components(separatedBy: "recorded ").count > Int(seconds) } || !process.isRunning
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        let rest = pipe.fileHandleForReading.readDataToEndOfFile()
        collected.withLock { $0 += String(decoding: rest, as: UTF8.self) }
        return (process.terminationStatus, collected.withLock { $0 })
    }

    @Test func recordTakesSeveralSources() throws {
        try Self.recordSession { prefix, _ in
            [
                "record", "--source", "lsl:\(prefix)-EEG", "--source", "lsl:\(prefix)-Aux", "--source",
                "lsl:\(prefix)-Markers",
            ]
        }
    }

    @Test func lslRecordAllTakesEveryStream() throws {
        try Self.recordSession { _, _ in ["lsl", "record", "--all"] }
    }

    /// Without --seconds, SIGINT and SIGTERM end the recording with every footer written.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsTheRecordingWithItsFooters(signal: Int32) throws {
        try Self.recordSession(stop: signal) { prefix, _ in
            [
                "lsl", "record", "--source", "lsl:\(prefix)-EEG", "--source", "lsl:\(prefix)-Aux", "--source",
                "lsl:\(prefix)-Markers",
            ]
        }
    }

    /// Every integer format and a regular-rate string stream, through the library: stored in the outlet's own
    /// format, every value exact (int64 beyond 2³², within the 2⁵³ that a double pull keeps).
    @Test func everyChannelFormatKeepsItsValues() throws {
        let library = try LSLPeer.library()
        let prefix = "axon-fmt-\(UUID().uuidString.prefix(8))"
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix).xdf").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let peer = try LSLPeer.Process(["formats", "--prefix", prefix, "--seconds", "60"])
        defer {
            kill(peer.process.processIdentifier, SIGKILL)
            peer.process.waitUntilExit()
        }
        try #require(peer.waitForLine(containing: "ready", timeout: 30) != nil)
        let formats = ["int8", "int16", "int32", "int64", "string"]
        // The int8 stream named twice (by name, then by source id) is recorded once.
        let selectors =
            try formats.map { try LSLStreamSelector(parsing: "\(prefix)-\($0)") }
            + [LSLStreamSelector(property: "source_id", value: "\(prefix)-int8")]
        let recorder = try LSLXDFRecorder(
            .streams(selectors), path: out, options: .init(resolveTimeout: 10), library: library)
        #expect(recorder.streams.map(\.channelFormat) == formats)
        #expect(recorder.skipped.count == 1, "\(recorder.skipped)")
        if case .alreadyRecorded(_, let selector)? = recorder.skipped.first {
            #expect(selector == "source_id=\(prefix)-int8", "\(selector)")
        } else {
            Issue.record("expected one stream skipped as already recorded, got \(recorder.skipped)")
        }
        try recorder.start()
        HostClock.sleep(until: HostClock.now() + 2)
        let figures = try recorder.stop()
        #expect(recorder.failures.isEmpty, "\(recorder.failures)")
        #expect(figures.allSatisfy { $0.samples > 0 && $0.clockOffsets.count == 1 }, "\(figures)")

        let stored = try Self.pyxdf(out, synchronize: false)
        let values: [String: (Double) -> Double] = [
            "int8": { $0.truncatingRemainder(dividingBy: 100) }, "int16": { $0.truncatingRemainder(dividingBy: 30000) },
            "int32": { 1e9 + $0 }, "int64": { 1_099_511_627_776 + $0 },
        ]
        for (format, value) in values {
            let stream = try #require(stored["\(prefix)-\(format)"])
            #expect(stream.channel_format == format)
            #expect(stream.count == figures.first { $0.info.channelFormat == format }?.samples)
            let rows = try #require(stream.values)
            // The counter k of the first sample, found from its value (int8 and int16 wrap: any k with that value).
            let first = try #require(rows.first?.first ?? nil) - value(0)
            let broken = rows.enumerated().filter { index, row in
                row != [value(first + Double(index)), -value(first + Double(index))]
            }
            #expect(broken.isEmpty, "\(format): \(broken.prefix(3))")
        }
        let text = try #require(stored["\(prefix)-string"])
        #expect(text.channel_format == "string" && text.nominal_srate == 100)
        let strings = try #require(text.strings)
        let first = Int(strings.first?.first?.split(separator: " ").last ?? "") ?? -1
        #expect(strings == (0..<strings.count).map { ["s \(first + $0)"] })
        print("formats: \(figures.map { "\($0.info.channelFormat) \($0.samples)" }.joined(separator: ", "))")
    }

    /// A named stream that does not answer ends the command with the stream's name, and leaves no file.
    @Test func aStreamThatDoesNotAnswerIsAnError() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("axon-rec-\(UUID().uuidString).xdf")
            .path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let missing = "axon-missing-\(UUID().uuidString.prefix(8))"
        for arguments in [
            ["record", "--source", "lsl:\(missing)", "--source", "lsl:type=\(missing)"],
            ["lsl", "record", "--source", "lsl:\(missing)", "--resolve-seconds", "1"],
        ] {
            let (status, output) = try AxonExecutable.run(
                axon, arguments + ["--out", out, "--seconds", "1", "--lsl-config", LSLPeer.configuration])
            #expect(status == 1, "\(output)")
            #expect(output.contains("no LSL stream matches name=\(missing)"), "\(output)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// Several sources go together only as LSL streams into an XDF file: anything else is a usage error (64).
    @Test func severalSourcesMustBeLSLStreamsIntoXDF() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let cases: [(arguments: [String], says: String)] = [
            (["record", "--source", "lsl:A", "--source", "simulator", "--out", "x.xdf"], "every one is an LSL stream"),
            (["record", "lsl:A", "--source", "lsl:B", "--out", "x.edf"], "--out must end in .xdf"),
            (["record", "--source", "lsl:A", "--source", "lsl:B", "--lsl-out", "--out", "x.xdf"], "--lsl-out go with"),
            (["lsl", "record", "--all", "--source", "lsl:A", "--out", "x.xdf"], "give --all or --source"),
            (["lsl", "record", "--source", "A", "--out", "x.xdf"], "A is not an LSL stream"),
        ]
        for (arguments, says) in cases {
            let (status, output) = try AxonExecutable.run(axon, arguments)
            #expect(status == 64, "\(arguments): \(output)")
            #expect(output.contains(says), "\(arguments): \(output)")
        }
    }
}
