import ArgumentParser
import AxonLSL
import AxonRecording
import AxonStreams
import Foundation

extension Axon.LSL {
    /// Records every LSL stream that answers (or the named ones) into one XDF file, as LabRecorder does.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record every LSL stream that answers (or those given with --source) into one XDF file.",
            discussion: """
                Each stream is kept as its outlet sends it, as LabRecorder keeps it: its full info as the stream \
                header, its samples with the outlet's timestamps, its clock offset (lsl_time_correction) measured \
                at the start and every 5 s, and a footer with its first and last timestamp, sample count and \
                offsets. Any channel format and rate, string streams included. Without --seconds it runs until \
                SIGINT or SIGTERM, which close the file cleanly. Without --lsl-config or LSLAPICFG only this \
                machine is searched (docs/lsl.md); see docs/xdf.md for the file.
                """)

        @Flag(help: "Record every stream that answers within --resolve-seconds.")
        var all = false

        @Option(
            name: .customLong("source"),
            help: ArgumentHelp(
                "A stream to record: lsl:NAME, lsl:type=T or lsl:source_id=ID (repeat for several).",
                valueName: "lsl:…"))
        var sources: [String] = []

        @Option(help: "The XDF file to write (.xdf).")
        var out: String

        @Option(help: "Seconds to record (default: until SIGINT/SIGTERM).")
        var seconds: Double?

        @Option(help: "Seconds to wait for streams to answer (with --all), or for each --source's stream.")
        var resolveSeconds: Double = 2

        @Option(help: "A liblsl configuration file (default: Axon's machine-only configuration).")
        var lslConfig: String?

        @Flag(help: "Replace --out if it exists (the old file is removed before the recording starts).")
        var force = false

        @Option(help: "Seconds between progress lines (wall clock).")
        var progress: Double = 1

        func validate() throws {
            guard all != !sources.isEmpty else { throw ValidationError("give --all or --source lsl:… (not both)") }
            guard seconds.map({ $0 > 0 }) ?? true, resolveSeconds > 0, progress > 0 else {
                throw ValidationError("need --seconds, --resolve-seconds and --progress > 0")
            }
            guard URL(fileURLWithPath: out).pathExtension.lowercased() == "xdf" else {
                throw ValidationError("--out must end in .xdf")
            }
            _ = try LSLSessionRecording.selectors(sources)
        }

        func run() throws {
            let selection: LSLXDFRecorder.Selection = all ? .all : .streams(try LSLSessionRecording.selectors(sources))
            try LSLSessionRecording(
                selection: selection, out: out, seconds: seconds, resolveSeconds: resolveSeconds,
                lslConfig: lslConfig, force: force, progress: progress, command: "lsl record"
            ).run()
        }
    }
}

/// `axon lsl record` and `axon record --source lsl:A --source lsl:B …`: several LSL streams into one XDF file
/// through ``LSLXDFRecorder``, until `seconds` pass or SIGINT/SIGTERM.
struct LSLSessionRecording {
    let selection: LSLXDFRecorder.Selection
    let out: String
    let seconds: Double?
    let resolveSeconds: Double
    let lslConfig: String?
    let force: Bool
    let progress: Double
    let command: String

    /// The selectors of `lsl:…` texts.
    ///
    /// - Throws: `ValidationError` for a text that is not `lsl:` or cannot be parsed.
    static func selectors(_ texts: [String]) throws -> [LSLStreamSelector] {
        try texts.map { text in
            guard let selector = try LSLCommandSupport.selector(source: text) else {
                throw ValidationError("\(text) is not an LSL stream: give lsl:NAME, lsl:type=TYPE or lsl:source_id=ID")
            }
            return selector
        }
    }

    func run() throws {
        let library = try LSLCommandSupport.run(configuration: lslConfig) { $0 }
        try OutputFile.claim(out, replace: force)
        let stopRequested = StopSignals()
        let recorder: LSLXDFRecorder
        do {
            recorder = try LSLXDFRecorder(
                selection, path: out, options: .init(resolveTimeout: resolveSeconds), library: library)
        } catch {
            printError("axon \(command): \(error)")
            throw ExitCode.failure
        }
        print(
            "axon \(command): \(recorder.streams.count) LSL stream\(recorder.streams.count == 1 ? "" : "s") → \(out)"
                + (seconds.map { " for \(fmt($0, 1)) s" } ?? " until SIGINT/SIGTERM"))
        for skipped in recorder.skipped { print("  skipped \(skipped)") }
        for stream in recorder.streams {
            let rate = stream.nominalRate > 0 ? "\(fmt(stream.nominalRate, 3)) Hz" : "irregular"
            print(
                "  \(stream.name)  type \(stream.type), \(stream.channelCount) channels, \(rate), "
                    + "\(stream.channelFormat), source_id \(stream.sourceID.isEmpty ? "-" : stream.sourceID), "
                    + "host \(stream.hostname)")
        }
        flushStandardOutput()
        do { try recorder.start() } catch {
            printError("axon \(command): \(error)")
            _ = try? recorder.stop()
            throw ExitCode.failure
        }
        let started = HostClock.now()
        let deadline = seconds.map { started + $0 }
        var nextProgress = started + progress
        while !stopRequested.isSet, deadline.map({ HostClock.now() < $0 }) ?? true, recorder.failures.isEmpty {
            HostClock.sleep(until: min(HostClock.now() + 0.05, deadline ?? .infinity))
            guard HostClock.now() >= nextProgress else { continue }
            nextProgress += progress
            let counts = recorder.progress.map { "\($0.info.name) \($0.samples)" }.joined(separator: ", ")
            print("recorded \(fmt(HostClock.now() - started, 1)) s: \(counts)")
            flushStandardOutput()
        }
        let figures: [LSLXDFRecorder.StreamProgress]
        do { figures = try recorder.stop() } catch {
            printError("axon \(command): \(error)")
            throw ExitCode.failure
        }
        print("done: \(fmt(HostClock.now() - started, 2)) s")
        for stream in figures {
            let offsets = stream.clockOffsets.map { fmt($0 * 1e6, 1) }.joined(separator: ", ")
            print(
                "  \(stream.info.name): \(stream.samples) samples, \(stream.clockOffsets.count) clock offsets "
                    + "(\(offsets) µs)"
                    + (stream.failedClockOffsets > 0 ? ", \(stream.failedClockOffsets) timed out" : ""))
        }
        let failures = recorder.failures
        if !failures.isEmpty { print("failures: \(failures.map(\.description).joined(separator: "; "))") }
        flushStandardOutput()
        if !failures.isEmpty { throw ExitCode.failure }
    }
}

extension Axon.Record {
    /// Every source given: SOURCE, then each `--source`.
    var givenSources: [String] { (source.map { [$0] } ?? []) + sourceOptions }

    /// With several sources: checks that they are all LSL streams going to an XDF file, and that no option of a
    /// single-stream recording is given. Returns whether this is such a recording.
    func validateLSLSession() throws -> Bool {
        let given = givenSources
        guard given.count > 1 else { return false }
        let other = given.filter { !LSLCommandSupport.isStream($0) }
        guard other.isEmpty else {
            throw ValidationError(
                "several sources are recorded together only when every one is an LSL stream (lsl:NAME, lsl:type=T, "
                    + "lsl:source_id=ID); not \(other.joined(separator: ", "))")
        }
        guard URL(fileURLWithPath: out).pathExtension.lowercased() == "xdf" else {
            throw ValidationError("several LSL streams are recorded into one XDF file: --out must end in .xdf")
        }
        let unsupported = [
            ("--lsl-out", lslOut), ("--markers", markers != nil), ("--device", device != nil),
            ("--anonymize", anonymization.anonymize), ("--range", range != nil), ("filters", filters.isActive),
        ].filter(\.1).map(\.0)
        guard unsupported.isEmpty else {
            throw ValidationError(
                "\(unsupported.joined(separator: ", ")) go with one source; with several LSL streams each is recorded "
                    + "as it comes (give a markers stream as one more --source)")
        }
        _ = try LSLSessionRecording.selectors(given)
        return true
    }

    /// Records the several LSL sources into one XDF file (no pipeline, no engine).
    func runLSLSession() throws {
        if durationOption != nil {
            printError("axon record: --duration is deprecated and goes in the next release; use --seconds")
        }
        try fileMode.apply()
        try LSLSessionRecording(
            selection: .streams(try LSLSessionRecording.selectors(givenSources)), out: out, seconds: duration,
            resolveSeconds: 5, lslConfig: lslConfig, force: force, progress: progress, command: "record"
        ).run()
    }
}
