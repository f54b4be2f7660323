import AxonRecording
import Foundation
import StreamTestSupport
import Testing

/// The filter options (`--bandpass`, `--highpass`, `--lowpass`, `--notch`, `--filter-order`) as a user gives them:
/// what they do to `axon analyze`'s figures on the shipped Cyton recording, what its output says ran, and the
/// usage errors for values that cannot work.
@Suite("filter options")
struct FilterOptionTests {
    static let openBCI = SignalTruthTests.openBCI

    static func axon(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        return try AxonExecutable.run(axon, arguments)
    }

    /// Each channel's median mains share (0…1) in an `analyze --json` report.
    static func mainsShares(_ report: [String: Any]) throws -> [Double] {
        let channels = try #require(report["channels"] as? [[String: Any]])
        return try channels.map { channel in
            let quality = try #require(channel["quality"] as? [String: Any])
            return try #require(quality["medianLineShare"] as? Double)
        }
    }

    @Test("analyze: the Cyton recording's mains is at 60 Hz — --notch 60 takes its share from above 90 % to under 5 %")
    func notchRemovesTheMains() throws {
        let raw = try SignalTruthTests.analyze([Self.openBCI])
        let rawShares = try Self.mainsShares(raw)
        #expect(rawShares.count == 8)
        #expect(rawShares.allSatisfy { $0 > 0.9 }, "\(rawShares)")
        #expect(raw["filters"] as? [String] == [])

        let notched = try SignalTruthTests.analyze([Self.openBCI, "--notch", "60"])
        let shares = try Self.mainsShares(notched)
        #expect(shares.allSatisfy { $0 < 0.05 }, "\(shares)")
        #expect(notched["filters"] as? [String] == ["notch 60 Hz + harmonics (120 Hz), Q 30, zero-phase"])

        // A notch at the other mains frequency leaves the 60 Hz line where it was: the filter is what it says.
        let wrong = try Self.mainsShares(SignalTruthTests.analyze([Self.openBCI, "--notch", "50"]))
        for (after, before) in zip(wrong, rawShares) { #expect(abs(after - before) < 0.02, "\(wrong) vs \(rawShares)") }
    }

    @Test("analyze --bandpass 1,50 --notch 60: the table says what ran, and the alpha peak stays within 0.2 Hz")
    func bandPassKeepsAlpha() throws {
        let raw = try SignalTruthTests.analyze([Self.openBCI])
        let filtered = try SignalTruthTests.analyze([Self.openBCI, "--bandpass", "1,50", "--notch", "60"])
        #expect(
            filtered["filters"] as? [String] == [
                "band-pass 1–50 Hz (Butterworth order 4, zero-phase)",
                "notch 60 Hz + harmonics (120 Hz), Q 30, zero-phase",
            ])
        #expect(try Self.mainsShares(filtered).allSatisfy { $0 < 0.01 })
        // The engine's alpha-band peak frequency, channel by channel: a 1–50 Hz pass band leaves it where it was
        // (measured: 0.11 Hz at most, on EXG2, where the high-pass changes which windows are flagged as blinks).
        func alphaMedians(_ report: [String: Any]) throws -> [Double] {
            try #require(report["channels"] as? [[String: Any]]).map { channel in
                let bands = try #require(channel["bands"] as? [[String: Any]])
                let alpha = try #require(bands.first { $0["low"] as? Double == 7 })
                return try #require(alpha["median"] as? Double)
            }
        }
        let (after, before) = (try alphaMedians(filtered), try alphaMedians(raw))
        #expect(after.count == 8)
        for (a, b) in zip(after, before) { #expect(abs(a - b) <= 0.2, "alpha medians \(after) vs \(before) Hz") }

        let (status, table) = try Self.axon(["analyze", Self.openBCI, "--highpass", "0.5", "--filter-order", "2"])
        #expect(status == 0, "\(table)")
        let lines = table.split(separator: "\n")
        #expect(
            lines.count > 2
                && lines[1] == "  filtered before the engine: high-pass 0.5 Hz (Butterworth order 2, zero-phase)",
            "\(table)")
        let (_, plain) = try Self.axon(["analyze", Self.openBCI])
        #expect(!plain.contains("filtered before the engine"))
    }

    @Test("values that cannot make a filter are usage errors (exit 64) that say why", arguments: [
        (["--bandpass", "50,1"], "--bandpass needs LOW,HIGH in Hz with 0 < LOW < HIGH"),
        (["--bandpass", "1"], "--bandpass needs LOW,HIGH"),
        (["--bandpass", "0,40"], "--bandpass needs LOW,HIGH"),
        (["--bandpass", "1,40", "--highpass", "2"], "--bandpass sets both edges"),
        (["--highpass", "0"], "--highpass needs a frequency in Hz > 0"),
        (["--highpass", "40", "--lowpass", "30"], "--highpass 40 is not below --lowpass 30"),
        (["--notch", "55"], "--notch takes the mains frequency: 50 or 60 (Hz)"),
        (["--lowpass", "40", "--filter-order", "9"], "--filter-order takes 1 to 8"),
        (["--filter-order", "2"], "--filter-order sets the order of --bandpass, --highpass or --lowpass"),
        (["--lowpass", "125"], "--lowpass 125 Hz is not below the Nyquist frequency, 125 Hz (half of the 250 Hz"),
        (["--bandpass", "1,200"], "--bandpass's upper edge 200 Hz is not below the Nyquist frequency"),
    ])
    func invalidValues(arguments: [String], message: String) throws {
        let (status, output) = try Self.axon(["analyze", Self.openBCI] + arguments)
        #expect(status == 64, "\(output)")
        #expect(output.contains("Error: " + message), "\(output)")
        #expect(output.contains("Usage: axon analyze"), "\(output)")
    }

    @Test("analyze filters recordings only: a test sequence with --notch is a usage error")
    func recordingsOnly() throws {
        let (status, output) = try Self.axon(["analyze", "test-sequence:10", "--seconds", "2", "--notch", "50"])
        #expect(status == 64, "\(output)")
        #expect(output.contains("filter a recording; a device or a test sequence runs unfiltered"), "\(output)")
    }
}

/// `axon convert` with filters: the written values are SciPy's `sosfiltfilt` of the source's, and the file says
/// which filters ran.
@Suite("convert with filters")
struct ConvertFilterTests {
    static let python = ConvertCommandTests.python

    /// `source`'s samples (frames × channels) filtered by SciPy with the 1–50 Hz band-pass (Butterworth order 4)
    /// and the 60/120 Hz notches (Q 30) as `sos`: `filtering` is the Python expression of `sos` and the samples `x`
    /// whose value is kept.
    static func sciPyFiltered(_ source: Recording, in folder: URL, by filtering: String) throws -> [[Double]] {
        try #require(FileManager.default.isExecutableFile(atPath: python), "make test installs .venv-peers")
        let input = folder.appendingPathComponent("in.txt")
        let reference = folder.appendingPathComponent("out.txt")
        let rows = (0..<source.frameCount).map { frame in
            (0..<source.channelCount).map { "\(source.value(frame: frame, channel: $0))" }.joined(separator: " ")
        }
        try rows.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let script = """
            import sys, numpy as np
            from scipy import signal
            x = np.loadtxt(sys.argv[1])
            sos = signal.butter(4, [1, 50], 'bandpass', fs=250, output='sos')
            for f in (60, 120):
                b, a = signal.iirnotch(f, 30, fs=250)
                sos = np.vstack([sos, signal.tf2sos(b, a)])
            np.savetxt(sys.argv[2], \(filtering), fmt='%.17g')
            """
        let (status, output) = try AxonExecutable.run(python, ["-c", script, input.path, reference.path])
        #expect(status == 0, "\(output)")
        return try String(contentsOf: reference, encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: " ").compactMap { Double($0) } }
    }

    @Test("convert --bandpass 1,50 --notch 60 to Axon CSV: every value within 1e-9 of SciPy's butter + iirnotch + sosfiltfilt")
    func csvMatchesSciPy() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "make test installs .venv-peers")
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw.csv").path
        let filtered = folder.appendingPathComponent("filtered.csv").path
        #expect(try ConvertCommandTests.axon(["convert", FilterOptionTests.openBCI, raw]).status == 0)
        let (status, output) = try ConvertCommandTests.axon(
            ["convert", FilterOptionTests.openBCI, filtered, "--bandpass", "1,50", "--notch", "60"])
        #expect(status == 0, "\(output)")
        #expect(output.contains(
            "filtered    band-pass 1–50 Hz (Butterworth order 4, zero-phase), notch 60 Hz + harmonics (120 Hz), Q 30, "
                + "zero-phase"), "\(output)")

        let source = try RecordingReader.read(path: raw)
        let ours = try RecordingReader.read(path: filtered)
        #expect(ours.frameCount == 22_490 && ours.channelCount == 8)
        #expect(ours.descriptor.metadata["edf.prefilter"] == "HP:1Hz LP:50Hz N:60Hz")
        #expect(ours.descriptor.metadata["filters"]?.hasPrefix("band-pass 1–50 Hz") == true)
        let expected = try Self.sciPyFiltered(source, in: folder, by: "signal.sosfiltfilt(sos, x, axis=0)")
        #expect(expected.count == ours.frameCount)
        var worst = 0.0
        var largest = 0.0
        for (frame, row) in expected.enumerated() {
            for (channel, value) in row.enumerated() {
                worst = max(worst, abs(ours.value(frame: frame, channel: channel) - value))
                largest = max(largest, abs(source.value(frame: frame, channel: channel)))
            }
        }
        #expect(worst <= 1e-9 * largest, "worst difference \(worst) µV, largest input \(largest) µV")
    }

    @Test(
        "a file with streams at two rates: only the main stream is filtered, and only its signals say so",
        .enabled(if: FileManager.default.isExecutableFile(atPath: ConvertCommandTests.python)))
    func companionsStayUnfiltered() throws {
        // pyedflib's legacy test file: 11 signals at 200 Hz and one at 57 Hz.
        let (_, directory) = try AxonExecutable.run(
            Self.python, [ConvertCommandTests.root.appendingPathComponent("scripts/pyedflib-read.py").path, "--data-dir"])
        let input = directory.trimmingCharacters(in: .whitespacesAndNewlines) + "/test_legacy.edf"
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bdf = folder.appendingPathComponent("legacy.bdf").path
        let (status, output) = try ConvertCommandTests.axon(["convert", input, bdf, "--lowpass", "40"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("note: the filters ran on the main stream only, not on the stream"), "\(output)")
        let script = "import sys, pyedflib; f = pyedflib.EdfReader(sys.argv[1]); "
            + "print('|'.join(f.getPrefilter(i) for i in range(f.signals_in_file)))"
        let (pyStatus, pyOutput) = try AxonExecutable.run(Self.python, ["-c", script, bdf])
        #expect(pyStatus == 0, "\(pyOutput)")
        let fields = pyOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|", omittingEmptySubsequences: false)
        #expect(fields == Array(repeating: "LP:40Hz", count: 11) + [""], "\(pyOutput)")

        // A Mind Monitor file's band powers arrive once a second: analyze filters its 256 Hz EEG only.
        let mindMonitor = ConvertCommandTests.root.appendingPathComponent(
            "datasets/muse-p300/mindMonitor-2017-format-first4s.csv").path
        let report = try SignalTruthTests.analyze([mindMonitor, "--notch", "60"])
        #expect(report["filters"] as? [String] == ["notch 60 Hz + harmonics (120 Hz), Q 30, zero-phase"])
    }

    @Test("convert --bandpass 1,50 --notch 60 to EDF+: the prefiltering field says HP:1Hz LP:50Hz N:60Hz, and the file analyses with under 1 % mains")
    func edfRecordsThePrefiltering() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edf = folder.appendingPathComponent("f.edf").path
        let (status, output) = try ConvertCommandTests.axon(
            ["convert", FilterOptionTests.openBCI, edf, "--bandpass", "1,50", "--notch", "60"])
        #expect(status == 0, "\(output)")
        let back = try RecordingReader.read(path: edf)
        #expect(back.descriptor.metadata["edf.prefilter"] == "HP:1Hz LP:50Hz N:60Hz")
        // The band-pass took the Cyton's offsets of tens of millivolts off: ranges of a few hundred µV.
        for channel in back.descriptor.channels {
            let range = try #require(channel.range)
            #expect(range.lowerBound > -1000 && range.upperBound < 1000, "\(channel.label): \(range)")
        }
        let shares = try FilterOptionTests.mainsShares(SignalTruthTests.analyze([edf]))
        #expect(shares.count == 8 && shares.allSatisfy { $0 < 0.01 }, "\(shares)")
        if FileManager.default.isExecutableFile(atPath: Self.python) {
            let script = "import sys, pyedflib; f = pyedflib.EdfReader(sys.argv[1]); print(f.getPrefilter(0))"
            let (pyStatus, pyOutput) = try AxonExecutable.run(Self.python, ["-c", script, edf])
            #expect(pyStatus == 0, "\(pyOutput)")
            #expect(pyOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "HP:1Hz LP:50Hz N:60Hz")
        }
    }
}

/// The live paths: `demo` and `view` run the filter causally ahead of the engine.
@Suite("live filters")
struct LiveFilterTests {
    /// Every `α%` figure `axon demo` prints per second and channel.
    static func alphaShares(_ output: String) -> [Double] {
        // The per-second lines: the time first (`    67.0  done  …`).
        output.split(separator: "\n").filter { line in line.split(separator: " ").first.flatMap { Double($0) } != nil }
            .flatMap { line in
                line.split(separator: " ").filter { $0.hasSuffix("%") }.compactMap { Double($0.dropLast()) }
            }
    }

    @Test("demo --bandpass 8,12 on the eyes-closed stretch: alpha's share of 3–30 Hz is ≥ 90 % every second, against a median of about 40 % unfiltered")
    func demoFiltersBeforeTheEngine() throws {
        let common = ["demo", "--fast", "--from", "30", "--to", "70", "--channels", "EXG6,EXG7,EXG2,EXG3"]
        let (rawStatus, raw) = try FilterOptionTests.axon(common)
        #expect(rawStatus == 0, "\(raw)")
        let (status, filtered) = try FilterOptionTests.axon(common + ["--bandpass", "8,12"])
        #expect(status == 0, "\(filtered)")
        #expect(filtered.contains("  filtered before the engine: band-pass 8–12 Hz (Butterworth order 4, causal)"))
        let before = Self.alphaShares(raw).sorted()
        let after = Self.alphaShares(filtered).sorted()
        // 39 spectra × 4 channels (measured: 156; unfiltered median 42 %, filtered minimum 92 %, median 99 %).
        #expect(before.count >= 150 && after.count == before.count, "\(before.count) vs \(after.count)")
        #expect(before[before.count / 2] < 60, "unfiltered median \(before[before.count / 2]) %")
        #expect((after.first ?? 0) >= 90, "filtered minimum \(after.first ?? 0) %")
    }

    @Test("demo filters a recording or a Cyton: a test sequence with --notch is a usage error")
    func demoSources() throws {
        let (status, output) = try FilterOptionTests.axon(["demo", "test-sequence:10", "--notch", "50"])
        #expect(status == 64, "\(output)")
        #expect(output.contains("filter a recording or a cyton: SOURCE (or any SOURCE with --view)"), "\(output)")
    }

    @Test("view --notch 60 says what runs before the page, and a --lowpass above the Nyquist frequency is a usage error")
    func viewFilters() throws {
        let common = ["view", FilterOptionTests.openBCI, "--fast", "--to", "5", "--port", "0", "--no-token", "--linger", "0"]
        let (status, output) = try FilterOptionTests.axon(common + ["--notch", "60"])
        #expect(status == 0, "\(output)")
        #expect(output.contains(
            "filtered before the engine and the page: notch 60 Hz + harmonics (120 Hz), Q 30, causal"), "\(output)")
        #expect(output.contains("done: 1250 samples through the engine"), "\(output)")
        let (refused, message) = try FilterOptionTests.axon(common + ["--lowpass", "130"])
        #expect(refused == 64, "\(message)")
        #expect(message.contains("--lowpass 130 Hz is not below the Nyquist frequency, 125 Hz"), "\(message)")
    }
}

/// `axon record` with filters: causal, what SciPy's `sosfilt` gives from the primed state, and said in the header.
@Suite("record with filters")
struct RecordFilterTests {
    @Test("record --bandpass 1,50 --notch 60 to EDF+: SciPy's sosfilt from sosfilt_zi·x[0] within half a step, HP:1Hz LP:50Hz N:60Hz in the header, nothing clipped")
    func recordMatchesSciPy() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edf = folder.appendingPathComponent("r.edf").path
        let (status, output) = try FilterOptionTests.axon(
            ["record", FilterOptionTests.openBCI, "--out", edf, "--fast", "--bandpass", "1,50", "--notch", "60"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("clipped per channel [0, 0, 0, 0, 0, 0, 0, 0]"), "\(output)")
        let back = try RecordingReader.read(path: edf)
        #expect(back.descriptor.metadata["edf.prefilter"] == "HP:1Hz LP:50Hz N:60Hz")
        let source = try RecordingReader.read(path: FilterOptionTests.openBCI)
        #expect(back.frameCount >= source.frameCount)

        // Causal, from the primed state: the steady state of the first frame.
        let expected = try ConvertFilterTests.sciPyFiltered(
            source, in: folder,
            by: "signal.sosfilt(sos, x, axis=0, zi=signal.sosfilt_zi(sos)[:, :, None] * x[0][None, None, :])[0]")
        #expect(expected.count == source.frameCount)
        for (channel, info) in back.descriptor.channels.enumerated() {
            let range = try #require(info.range)
            let step = (range.upperBound - range.lowerBound) / 65535
            var worst = 0.0
            for (frame, row) in expected.enumerated() {
                worst = max(worst, abs(back.value(frame: frame, channel: channel) - row[channel]))
            }
            #expect(worst <= step * 0.51, "\(info.label): worst \(worst) µV, step \(step) µV")
        }
    }

    @Test("record --notch to .csv is a usage error: the file could not say it was filtered")
    func csvRefused() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("r.csv").path
        let (status, output) = try FilterOptionTests.axon(
            ["record", FilterOptionTests.openBCI, "--out", csv, "--fast", "--notch", "60"])
        #expect(status == 64, "\(output)")
        #expect(output.contains("record to .edf or .bdf, whose header says which filters ran"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: csv))
    }
}
