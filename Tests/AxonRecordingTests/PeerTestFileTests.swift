import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// The EDF and BDF files pyedflib's distribution ships for its own tests (EDFlib's generator files among them: five
/// signals at five rates, 0.5 s and 2 s records, a legacy EDF, sub-second starts, UTF-8 text), read by Axon and by
/// pyedflib: every signal is there, at its own rate, with pyedflib's values within one digital step (issue 36).
/// Without `.venv-peers` the suite has nothing to compare with and is skipped.
struct PeerTestFileTests {
    private struct Signal: Decodable {
        var label: String
        var rate: Double
        var samples: Int
        var step: Double
    }

    private static let script = TestData.root.appendingPathComponent("scripts/pyedflib-read.py").path

    /// pyedflib's test data folder, or nil without the peers.
    private static let dataDirectory: String? = {
        guard EDFPeers.available, let output = try? run(["--data-dir"]) else { return nil }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    private static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: EDFPeers.python)
        process.arguments = [script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        return output
    }

    private static var files: [String] {
        guard let dataDirectory else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory)) ?? []
        return names.filter { $0.hasSuffix(".edf") || $0.hasSuffix(".bdf") }.sorted()
    }

    @Test("every signal of pyedflib's test files, at its rate, with pyedflib's values", .enabled(if: !files.isEmpty))
    func pyedflibTestFiles() throws {
        var checked = 0
        for name in Self.files {
            let path = Self.dataDirectory! + "/" + name
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("axon-pyedflib-\(UUID())").path
            defer {
                try? FileManager.default.removeItem(atPath: out + ".json")
                try? FileManager.default.removeItem(atPath: out + ".f64")
            }
            _ = try Self.run([path, out])
            let signals = try JSONDecoder().decode(
                [Signal].self, from: Data(contentsOf: URL(fileURLWithPath: out + ".json")))
            let flat = try Data(contentsOf: URL(fileURLWithPath: out + ".f64")).withUnsafeBytes {
                Array($0.bindMemory(to: Double.self))
            }
            let recording = try EDFFileReader().read(path: path)
            let streams = recording.streams
            #expect(
                streams.reduce(0) { $0 + $1.channelCount } == signals.count,
                "\(name): \(streams.map(\.channelLabels)) against \(signals.map(\.label))")
            var offset = 0
            for signal in signals {
                defer { offset += signal.samples }
                let label = signal.label.trimmingCharacters(in: .whitespaces)
                guard let stream = streams.first(where: { $0.channelLabels.contains(label) }) else {
                    Issue.record("\(name): no \(label) in \(streams.map(\.channelLabels))")
                    continue
                }
                #expect(abs(stream.sampleRate - signal.rate) < 1e-9, "\(name) \(label): \(stream.sampleRate) Hz")
                let ours = try stream.channel(label)
                #expect(ours.count == signal.samples, "\(name) \(label): \(ours.count) of \(signal.samples) samples")
                let theirs = flat[offset..<(offset + min(ours.count, signal.samples))]
                let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 0
                #expect(worst <= signal.step * 1.0001, "\(name) \(label): off by \(worst), one step \(signal.step)")
                checked += 1
            }
        }
        print("pyedflib's test files: \(Self.files.count) files, \(checked) signals as pyedflib reads them")
        #expect(checked >= 20)
    }
}
