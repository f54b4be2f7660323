import Foundation
import StreamTestSupport
import Testing

/// `axon analyze` against references computed by independent code (`Tests/Reference/iaf_reference.py`: SciPy's
/// Welch and periodogram, and the individual alpha frequency procedure of Corcoran et al. 2018 written from the
/// paper in Python) on the real recordings in `datasets/`: the individual alpha frequency, the per-window alpha
/// peaks against a 4-s Welch spectrum, and the eyes-closed ÷ eyes-open alpha reactivity.
@Suite("signal truth on real recordings")
struct SignalTruthTests {
    static let root = ReadmeTests.root
    static let python = root.appendingPathComponent(".venv-peers/bin/python").path
    static let reference = root.appendingPathComponent("Tests/Reference/iaf_reference.py").path
    static let openBCI = root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path
    static let eyesOpen = root.appendingPathComponent("datasets/physionet-eegmmidb/S001R01.edf").path
    static let eyesClosed = root.appendingPathComponent("datasets/physionet-eegmmidb/S001R02.edf").path

    /// `axon analyze ARGUMENTS --json` as a JSON object.
    static func analyze(_ arguments: [String]) throws -> [String: Any] {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let (status, output) = try AxonExecutable.run(axon, ["analyze"] + arguments + ["--json"])
        #expect(status == 0, "\(output)")
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("{") }, "\(output)")
        return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// The independent reference's JSON for `arguments`.
    static func referenceFigures(_ arguments: [String]) throws -> [String: Any] {
        try #require(FileManager.default.isExecutableFile(atPath: python), "make test installs .venv-peers")
        let (status, output) = try AxonExecutable.run(python, [reference] + arguments)
        #expect(status == 0, "\(output)")
        let start = try #require(output.firstIndex(of: "{"), "\(output)")
        return try #require(JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any])
    }

    /// The window starts Axon averaged, shifted to the file's samples, in a temporary JSON file.
    static func windowsFile(_ report: [String: Any], offset: Int) throws -> URL {
        let alpha = try #require(report["individualAlpha"] as? [String: Any])
        let starts = try #require(alpha["windowStarts"] as? [Int]).map { $0 + offset }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("axon-windows-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: starts).write(to: url)
        return url
    }

    /// Axon's pooled and per-channel PAF and CoG beside the reference's, within 0.1 Hz (a missing value must be
    /// missing on both sides).
    static func expectSameIAF(_ report: [String: Any], _ figures: [String: Any]) throws {
        let alpha = try #require(report["individualAlpha"] as? [String: Any])
        let estimate = try #require(alpha["estimate"] as? [String: Any])
        func close(_ ours: Any?, _ theirs: Any?, _ what: String) {
            let a = ours as? Double
            let b = theirs as? Double
            #expect((a == nil) == (b == nil), "\(what): Axon \(String(describing: a)), reference \(String(describing: b))")
            if let a, let b { #expect(abs(a - b) <= 0.1, "\(what): Axon \(a) Hz, reference \(b) Hz") }
        }
        close(estimate["peak"], figures["paf"], "pooled PAF")
        close(estimate["centreOfGravity"], figures["cog"], "pooled CoG")
        let ours = try #require(estimate["channels"] as? [[String: Any]])
        let theirs = try #require(figures["channels"] as? [[String: Any]])
        #expect(ours.count == theirs.count)
        for (index, (a, b)) in zip(ours, theirs).enumerated() {
            close(a["peak"], b["paf"], "channel \(index) PAF")
            close(a["centreOfGravity"], b["cog"], "channel \(index) CoG")
        }
        #expect(estimate["peak"] != nil, "a recording with an alpha rhythm has an IAF")
    }

    @Test("the OpenBCI eyes-closed stretch: IAF equals the independent implementation's")
    func openBCIIndividualAlpha() throws {
        let report = try Self.analyze([Self.openBCI, "--from", "34", "--to", "76", "--baseline", "0"])
        let windows = try Self.windowsFile(report, offset: 34 * 250)
        defer { try? FileManager.default.removeItem(at: windows) }
        let channels = (0..<8).map { "EXG Channel \($0)" }.joined(separator: ",")
        let figures = try Self.referenceFigures([
            "--openbci", Self.openBCI, "--channels", channels, "--windows", windows.path, "--segment-length", "256",
            "--nfft", "1024",
        ])
        try Self.expectSameIAF(report, figures)
    }

    @Test("EEGMMIDB eyes closed (R02), O1/Oz/O2: IAF equals the independent implementation's")
    func physioNetIndividualAlpha() throws {
        let report = try Self.analyze([Self.eyesClosed, "--channels", "O1..,Oz..,O2..", "--baseline", "0"])
        let windows = try Self.windowsFile(report, offset: 0)
        defer { try? FileManager.default.removeItem(at: windows) }
        let figures = try Self.referenceFigures([
            "--edf", Self.eyesClosed, "--channels", "O1..,Oz..,O2..", "--windows", windows.path,
            "--segment-length", "256", "--nfft", "1024",
        ])
        try Self.expectSameIAF(report, figures)
    }

    /// Each channel's median 7–13 Hz dominant frequency beside the peak of SciPy's 4-s Welch spectrum.
    static func expectAlphaMediansNearWelch(_ report: [String: Any], _ figures: [String: Any], channels: [Int]) throws {
        let ours = try #require(report["channels"] as? [[String: Any]])
        let theirs = try #require(figures["channels"] as? [[String: Any]])
        for index in channels {
            let bands = try #require(ours[index]["bands"] as? [[String: Any]])
            let median = try #require(bands[1]["median"] as? Double)
            let welch = try #require(theirs[index]["peakFrequency"] as? Double, "\(theirs[index])")
            #expect(abs(median - welch) <= 0.25, "channel \(index): median \(median) Hz, 4-s Welch peak \(welch) Hz")
        }
    }

    @Test("channels with an alpha rhythm: the median per-window alpha peak lies within 0.25 Hz of the 4-s Welch peak")
    func alphaMediansAgainstWelch() throws {
        let openBCI = try Self.analyze([Self.openBCI, "--from", "34", "--to", "76", "--baseline", "0"])
        let openBCIWelch = try Self.referenceFigures([
            "--openbci", Self.openBCI, "--channels", "EXG Channel 6,EXG Channel 7", "--from", "34", "--to", "76",
            "--welch-peak",
        ])
        // EXG6 and EXG7 (O1, O2 in the GUI's montage) are the channels whose alpha passes the IAF criteria.
        let pair = ["channels": Array((try #require(openBCI["channels"] as? [[String: Any]]))[6...7])]
        try Self.expectAlphaMediansNearWelch(pair, openBCIWelch, channels: [0, 1])
        let physioNet = try Self.analyze([Self.eyesClosed, "--channels", "O1..,Oz..,O2..", "--baseline", "0"])
        let physioNetWelch = try Self.referenceFigures([
            "--edf", Self.eyesClosed, "--channels", "O1..,Oz..,O2..", "--welch-peak",
        ])
        try Self.expectAlphaMediansNearWelch(physioNet, physioNetWelch, channels: [0, 1, 2])
    }

    /// The per-channel eyes-closed ÷ eyes-open ratios of a report.
    static func ratios(_ report: [String: Any]) throws -> [Double] {
        let reactivity = try #require(report["reactivity"] as? [String: Any], "no reactivity in the report")
        let channels = try #require(reactivity["channels"] as? [[String: Any]])
        return try channels.map { try #require($0["ratio"] as? Double) }
    }

    @Test("alpha reactivity: eyes-closed ÷ eyes-open alpha power above 2 on both recordings")
    func reactivity() throws {
        let openBCI = try Self.analyze([
            Self.openBCI, "--channels", "EXG6,EXG7", "--baseline", "0",
            "--segments", "eyes-open=0-28,eyes-closed=28-76,eyes-open=76-86",
        ])
        for ratio in try Self.ratios(openBCI) { #expect(ratio > 2, "OpenBCI EXG6/EXG7: \(ratio)") }
        let physioNet = try Self.analyze([
            Self.eyesClosed, "--channels", "O1..,Oz..,O2..", "--baseline", "0", "--eyes-open-recording", Self.eyesOpen,
        ])
        for ratio in try Self.ratios(physioNet) { #expect(ratio > 2, "EEGMMIDB R02 ÷ R01: \(ratio)") }
        // The independent figure for the same files: SciPy's 4-s Welch alpha power, R02 ÷ R01, well above 2 too.
        let closed = try Self.referenceFigures(["--edf", Self.eyesClosed, "--channels", "O1..,Oz..,O2..", "--welch-peak"])
        let open = try Self.referenceFigures(["--edf", Self.eyesOpen, "--channels", "O1..,Oz..,O2..", "--welch-peak"])
        for (a, b) in zip(try #require(closed["channels"] as? [[String: Any]]), try #require(open["channels"] as? [[String: Any]])) {
            let ratio = try #require(a["alphaPower"] as? Double) / (try #require(b["alphaPower"] as? Double))
            #expect(ratio > 2, "SciPy Welch R02 ÷ R01: \(ratio)")
        }
    }

    @Test("segments that do not parse are refused with the form to use")
    func badSegments() throws {
        let axon = try #require(AxonExecutable.path)
        let (status, output) = try AxonExecutable.run(axon, ["analyze", Self.openBCI, "--segments", "eyes-shut=0-10"])
        #expect(status != 0)
        #expect(output.contains("STATE=FROM-TO"), "\(output)")
    }
}

/// The running individual alpha frequency reaches the files a run records: `axon record … --out FILE.xdf` writes an
/// `Alpha` stream beside `Spectra` and `Zones`, and pyxdf reads it.
@Suite("the running individual alpha frequency in XDF")
struct RunningAlphaRecordTests {
    @Test func recordWritesTheAlphaStreamPyxdfReads() throws {
        let python = SignalTruthTests.python
        try #require(FileManager.default.isExecutableFile(atPath: python), "make test installs .venv-peers")
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("axon-alpha-\(UUID().uuidString).xdf")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorded = try AxonExecutable.run(
            axon, ["record", "simulator", "--out", url.path, "--seconds", "40", "--fast", "--baseline", "10"])
        #expect(recorded.status == 0, "\(recorded.output)")
        let script = """
            import sys, json, math, pyxdf
            streams, _ = pyxdf.load_xdf(sys.argv[1])
            alpha = [s for s in streams if s["info"]["name"][0].endswith(" Alpha")][0]
            labels = [c["label"][0] for c in alpha["info"]["desc"][0]["channels"][0]["channel"]]
            rows = [[None if math.isnan(v) else v for v in row] for row in alpha["time_series"].tolist()]
            print(json.dumps({"labels": labels, "rows": rows}))
            """
        let (status, output) = try AxonExecutable.run(python, ["-c", script, url.path])
        #expect(status == 0, "\(output)")
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "\(output)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let labels = try #require(json["labels"] as? [String])
        #expect(labels.count == 10 && labels.last == "pooled CoG", "\(labels)")
        let rows = try #require(json["rows"] as? [[Any]])
        #expect(rows.count >= 3, "\(rows.count) updates in 40 s")
        // The simulator's alpha channels carry a 10 Hz rhythm: the pooled PAF is there.
        let pooled = try #require(rows.last?[8] as? Double)
        #expect(abs(pooled - 10) < 0.3, "\(pooled)")
    }
}
