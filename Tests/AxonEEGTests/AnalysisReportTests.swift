import Foundation
import Testing

@testable import AxonEEG

@Suite("Analysis report: summaries and the JSON keys axon analyze prints")
struct AnalysisReportTests {
    static func run(seconds: Double, baseline: Double?) throws -> EEGAnalysisReport {
        let count = Int(seconds * 250)
        return try EEGOfflineAnalysis.run(
            configuration: testConfiguration(baseline: baseline ?? 60, indicator: 5), frameCount: count,
            baselineSeconds: baseline,
            value: { frame, channel in 30 * sin(2 * .pi * (9 + Double(channel)) * Double(frame) / 250) },
            time: { testStartTime + Double($0) / 250 })
    }

    @Test("medians per channel and band, and a zone timeline on sample time")
    func summary() throws {
        let report = try Self.run(seconds: 40, baseline: 20)
        #expect(report.frames == 39 && report.samples == 10_000)
        #expect(report.channels.map(\.label) == ["T3", "O1", "T4", "O2"])
        for (channel, summary) in report.channels.enumerated() {
            let alpha = summary.bands[1]
            #expect(abs((alpha.median ?? 0) - Double(9 + channel)) < 0.05)
            #expect(abs((alpha.medianPower ?? 0) - 450) < 5)  // A²/2 for A = 30 µV
        }
        #expect(report.zones.map(\.time) == [20, 25, 30, 35, 40])
    }

    @Test("the JSON object keeps its documented keys, with null where there is nothing to summarise")
    func jsonKeys() throws {
        let encoder = JSONEncoder()
        let full = try JSONSerialization.jsonObject(with: encoder.encode(Self.run(seconds: 30, baseline: 10))) as! [String: Any]
        for key in ["sampleRate", "frames", "channels", "zones"] { #expect(full[key] != nil, "\(key)") }
        let channel = (full["channels"] as! [[String: Any]])[1]
        #expect(channel["label"] as? String == "O1")
        let band = (channel["bands"] as! [[String: Any]])[1]
        for key in ["low", "high", "median", "min", "max", "medianPower"] { #expect(band[key] is Double, "\(key)") }
        let zone = (full["zones"] as! [[String: Any]])[0]
        #expect(zone["time"] as? Double == 10 && zone["zone"] as? String == "NormalActivity")
        #expect(zone["percent"] is Double && (zone["channels"] as? [[String: Any]])?.count == 4)

        let empty = try JSONSerialization.jsonObject(with: encoder.encode(Self.run(seconds: 0.5, baseline: nil))) as! [String: Any]
        #expect(empty["frames"] as? Int == 0)
        let emptyBand = ((empty["channels"] as! [[String: Any]])[0]["bands"] as! [[String: Any]])[0]
        #expect(emptyBand["median"] is NSNull)
    }
}
