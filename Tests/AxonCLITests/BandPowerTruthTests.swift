import Foundation
import StreamTestSupport
import Testing

/// `axon analyze`'s band powers (``AxonEEG/BandPowers`` of the mean of the engine's window spectra) against SciPy's
/// Welch PSD integrated per band by `Tests/Reference/band_power_reference.py` (same window length, hop, periodic
/// Hann window, mean removal, every window, edge rule LO ≤ f < HI), on the shipped recordings; and `--bands` as a
/// user gives it.
@Suite("band powers against SciPy")
struct BandPowerTruthTests {
    static let reference = SignalTruthTests.root.appendingPathComponent("Tests/Reference/band_power_reference.py").path

    /// The reference's JSON for `arguments`.
    static func scipy(_ arguments: [String]) throws -> [String: Any] {
        let python = SignalTruthTests.python
        try #require(FileManager.default.isExecutableFile(atPath: python), "make test-deps installs .venv-peers")
        let (status, output) = try AxonExecutable.run(python, [reference] + arguments)
        #expect(status == 0, "\(output)")
        let start = try #require(output.firstIndex(of: "{"), "\(output)")
        return try #require(JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any])
    }

    /// Every channel × band, absolute and relative, within `tolerance` (relative difference); returns the worst.
    static func compare(_ report: [String: Any], _ figures: [String: Any], bandCount: Int, tolerance: Double = 0.01)
        throws -> Double
    {
        let ours = try #require(report["bandPowers"] as? [String: Any], "no bandPowers in the report")
        #expect(ours["windows"] as? Int == figures["segments"] as? Int, "the same windows: \(ours["windows"] ?? "–")")
        #expect(ours["windowsWithFilledSamples"] as? Int == 0)
        let bands = try #require(ours["bands"] as? [[String: Any]])
        let theirBands = try #require(figures["bands"] as? [[String: Any]])
        #expect(bands.count == bandCount && theirBands.count == bandCount)
        for (a, b) in zip(bands, theirBands) {
            #expect(a["name"] as? String == b["name"] as? String)
            #expect(a["low"] as? Double == b["low"] as? Double && a["high"] as? Double == b["high"] as? Double)
        }
        let channels = try #require(ours["channels"] as? [[String: Any]])
        let theirs = try #require(figures["channels"] as? [[String: Any]])
        #expect(channels.count == theirs.count && !channels.isEmpty)
        var worst = 0.0
        for (index, (a, b)) in zip(channels, theirs).enumerated() {
            for key in ["absolute", "relative"] {
                let x = try #require(a[key] as? [Double], "channel \(index) \(key): \(a[key] ?? "–")")
                let y = try #require(b[key] as? [Double])
                #expect(x.count == bandCount && y.count == bandCount)
                for (band, (mine, scipy)) in zip(x, y).enumerated() {
                    let difference = abs(mine - scipy) / abs(scipy)
                    worst = max(worst, difference)
                    #expect(
                        difference <= tolerance, "channel \(index) band \(band) \(key): Axon \(mine), SciPy \(scipy)")
                }
            }
        }
        return worst
    }

    @Test("the Cyton recording demo replays, 8 channels, whole file: within 1 % of SciPy's Welch")
    func cyton() throws {
        let report = try SignalTruthTests.analyze([SignalTruthTests.openBCI, "--baseline", "0"])
        let channels = (0..<8).map { "EXG Channel \($0)" }.joined(separator: ",")
        let figures = try Self.scipy(["--openbci", SignalTruthTests.openBCI, "--channels", channels])
        let worst = try Self.compare(report, figures, bandCount: 5)
        print("band powers, Cyton recording: worst relative difference from SciPy \(worst * 100) %")
    }

    @Test("EEGMMIDB S001R02 (160 Hz, hop 160), O1/Oz/O2 and Fz/Cz: within 1 % of SciPy's Welch")
    func physioNet() throws {
        let channels = "O1..,Oz..,O2..,Fz..,Cz.."
        let report = try SignalTruthTests.analyze([
            SignalTruthTests.eyesClosed, "--channels", channels, "--baseline", "0",
        ])
        let figures = try Self.scipy(["--edf", SignalTruthTests.eyesClosed, "--channels", channels])
        let worst = try Self.compare(report, figures, bandCount: 5)
        print("band powers, EEGMMIDB S001R02: worst relative difference from SciPy \(worst * 100) %")
    }

    @Test("--bands with other bands, on a stretch (--from 34 --to 76): within 1 % of SciPy's Welch")
    func customBands() throws {
        let bands = "slow=0.5-7.5,lowAlpha=8-10,highAlpha=10-12.5,fast=12.5-60"
        let report = try SignalTruthTests.analyze([
            SignalTruthTests.openBCI, "--from", "34", "--to", "76", "--baseline", "0", "--bands", bands,
        ])
        let figures = try Self.scipy([
            "--openbci", SignalTruthTests.openBCI, "--channels", "EXG Channel 6,EXG Channel 7", "--from", "34",
            "--to", "76", "--bands", bands,
        ])
        let pair = try #require(report["bandPowers"] as? [String: Any])
        var trimmed = pair
        trimmed["channels"] = Array(try #require(pair["channels"] as? [[String: Any]])[6...7])
        let worst = try Self.compare(["bandPowers": trimmed], figures, bandCount: 4)
        print("band powers, Cyton 34–76 s, custom bands: worst relative difference from SciPy \(worst * 100) %")
    }

    @Test("the table shows the five bands per channel beside the dominant frequencies")
    func table() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let (status, output) = try AxonExecutable.run(
            axon, ["analyze", SignalTruthTests.eyesClosed, "--channels", "O1..,Oz..", "--baseline", "0"])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        let title = try #require(lines.firstIndex { $0.contains("band powers, µV²") }, "\(output)")
        #expect(lines[title].contains("mean spectrum of 59 windows"), "\(lines[title])")
        for name in ["delta 1–4", "theta 4–8", "alpha 8–13", "beta 13–30", "gamma 30–45"] {
            #expect(lines[title + 1].contains(name), "\(lines[title + 1])")
        }
        // O1's alpha: 3794.61 µV² by SciPy, 68 % of the five bands (eyes closed).
        #expect(lines[title + 2].hasPrefix("  O1..") && lines[title + 2].contains("(68.0%)"), "\(lines[title + 2])")
    }

    @Test(
        "--bands values that cannot work are usage errors (exit 64) that say why",
        arguments: [
            (["--bands", "alpha=8-13,alpha=13-30"], "band name 'alpha' is given twice"),
            (["--bands", "=8-13"], "every band needs a name"),
            (["--bands", "alpha=13-8"], "needs 0 ≤ LO < HI"),
            (["--bands", "alpha"], "'alpha' is not NAME=LO-HI"),
            (["--bands", "gamma=30-100"], "band gamma ends at 100 Hz, above the Nyquist frequency, 80 Hz"),
            (["--bands", "narrow=10.1-10.5"], "band narrow holds no spectrum bin"),
        ])
    func refused(arguments: [String], message: String) throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let (status, output) = try AxonExecutable.run(axon, ["analyze", SignalTruthTests.eyesClosed] + arguments)
        #expect(status == 64, "\(output)")
        #expect(output.contains(message), "\(output)")
    }

    @Test("view, record and demo check --bands against their stream's rate: a band above 125 Hz is a usage error")
    func otherCommandsRefuseBandsAboveNyquist() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("axon-bands-\(UUID().uuidString).edf")
        defer { try? FileManager.default.removeItem(at: out) }
        for arguments in [
            ["view", "test-sequence:10", "--port", "0"],
            ["record", "test-sequence:10", "--seconds", "2", "--out", out.path],
            ["demo", SignalTruthTests.openBCI, "--fast", "--to", "20"],
        ] {
            let (status, output) = try AxonExecutable.run(axon, arguments + ["--bands", "gamma=30-200"])
            #expect(status == 64, "\(arguments[0]): \(output)")
            #expect(output.contains("band gamma ends at 200 Hz, above the Nyquist frequency, 125 Hz"), "\(output)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
