import Foundation
import StreamTestSupport
import Testing

/// `axon analyze FILE --asr` without `--asr-calibration` calibrates on the recording's cleanest stretch, so the
/// baseline is taken on cleaned data (`docs/asr.md`).
@Suite("analyze --asr: the default calibration is the cleanest stretch")
struct AnalyzeASRTests {
    static let file = ReadmeTests.root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"
    ).path

    /// `excludedFrames` and the number of zones of `analyze FILE --json` with `extra` arguments.
    static func summary(_ axon: String, _ extra: [String]) throws -> (excluded: Int, zones: Int) {
        let run = try AxonExecutable.run(axon, ["analyze", file, "--json"] + extra)
        #expect(run.0 == 0, "\(run.1)")
        let json = try #require(run.1.split(separator: "\n").last { $0.hasPrefix("{") })
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (try #require(object?["excludedFrames"] as? Int), (object?["zones"] as? [Any])?.count ?? 0)
    }

    @Test("on the shared OpenBCI recording: calibrated on 19–79 s, every analysed frame cleaned, zones made")
    func cleanestStretch() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let table = try AxonExecutable.run(axon, ["analyze", Self.file, "--asr"])
        #expect(table.0 == 0, "\(table.1)")
        #expect(table.1.contains("ASR calibrated on 19.0–79.0 s (the cleanest stretch)"), "\(table.1.prefix(300))")
        let raw = try Self.summary(axon, [])
        let cleanest = try Self.summary(axon, ["--asr"])
        let firstMinute = try Self.summary(axon, ["--asr", "--asr-calibration", "0-60"])
        let eyesClosed = try Self.summary(axon, ["--asr", "--asr-calibration", "30-60"])
        print("analyze --asr: windows left out \(raw.excluded) raw, \(cleanest.excluded) calibrated on the cleanest"
            + " stretch, \(firstMinute.excluded) on 0–60 s, \(eyesClosed.excluded) on 30–60 s; zones \(cleanest.zones)")
        #expect(cleanest.excluded < raw.excluded)
        // The baseline (60 s from 1.02 s) completes inside the 90 s recording: indicators at 61, 71, 81 s.
        #expect(cleanest.zones == 3)
    }
}
