import Foundation
import StreamTestSupport
import Testing

/// `axon analyze`, `info` and `replay` print every channel's whole label in their tables: labels that share a
/// prefix (EDFbrowser's generator files: `sine 8 Hz`, `sine 8.1777 Hz`, `sine 8.5 Hz`) are never cut to it.
@Suite("tables print whole labels")
struct WholeLabelTableTests {
    static let labels = ["sine 8 Hz", "sine 8.1777 Hz", "sine 8.5 Hz", "sine 10 Hz long label"]

    /// An Axon CSV file of 20 s at 256 Hz, one sine per channel at the frequency its label names.
    static func sines() -> String {
        let rate = 256.0
        let frequencies = [8, 8.1777, 8.5, 10]
        let channels = labels.map { "{\"label\":\"\($0)\",\"unit\":\"uV\"}" }.joined(separator: ",")
        var text =
            "# axon-csv 1\n# descriptor {\"channels\":[\(channels)],\"contentType\":\"EEG\","
            + "\"format\":\"float32\",\"metadata\":{},\"name\":\"t\",\"nominalRate\":\(rate),\"sourceID\":\"s\"}\n"
            + "sample,host_time,device_time,counter," + labels.map { "\($0) (uV)" }.joined(separator: ",") + "\n"
        for frame in 0..<Int(20 * rate) {
            let time = Double(frame) / rate
            let values = frequencies.map { String(20 * sin(2 * Double.pi * $0 * time)) }
            text += "\(frame),\(1_764_201_600 + time),,," + values.joined(separator: ",") + "\n"
        }
        return text
    }

    @Test("analyze, info and replay: every label whole, at the start of its rows")
    func wholeLabels() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-labels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sines.csv").path
        try Self.sines().write(toFile: file, atomically: true, encoding: .utf8)

        let analyze = try AxonExecutable.run(axon, ["analyze", file, "--baseline", "0"])
        #expect(analyze.0 == 0, "\(analyze.1)")
        let analyzeLines = analyze.1.split(separator: "\n").map(String.init)
        for label in Self.labels {
            // Its band rows and its quality row start with the whole label and a space.
            let rows = analyzeLines.filter { $0.hasPrefix("  \(label) ") }
            #expect(rows.count >= 2, "\(label): \(analyze.1)")
        }
        // The band table's columns stay aligned: every row's band range starts at the same column.
        let bandColumns = Set(
            analyzeLines.filter { line in Self.labels.contains { line.hasPrefix("  \($0) ") } && line.contains("–") }
                .map { $0.distance(from: $0.startIndex, to: $0.firstIndex(of: "–")!) })
        #expect(bandColumns.count <= 2, "\(bandColumns)")  // one-digit and two-digit band edges

        let info = try AxonExecutable.run(axon, ["info", file])
        #expect(info.0 == 0, "\(info.1)")
        for label in Self.labels {
            #expect(info.1.split(separator: "\n").contains { $0.hasPrefix("    \(label) ") }, "\(label): \(info.1)")
        }

        let replay = try AxonExecutable.run(axon, ["replay", file, "--fast"])
        #expect(replay.0 == 0, "\(replay.1)")
        let header = try #require(replay.1.split(separator: "\n").first { $0.contains("time s  baseline") })
        for label in Self.labels { #expect(header.contains(label), "\(label): \(header)") }
    }
}
