import Foundation
import Testing

@testable import AxonStreams

/// Someone else's EEG through the pipeline: the OpenBCI Cyton eyes-closed segment (datasets/README.md).
@Suite("Real recording through the pipeline", .serialized)
struct RealRecordingTests {
    /// Replays rows of a recording as frames with an 8-bit wrapping counter (as the Cyton's sample index) and
    /// virtual arrival times at 250 Hz, skipping the rows in `lost`.
    struct Replay: SampleSource {
        let rows: [[Double]]
        let lost: Set<Int>
        let descriptor: StreamDescriptor

        func run(into writer: FrameWriter) throws {
            for (index, row) in rows.enumerated() where !lost.contains(index) {
                writer.write(row, counter: UInt64(index % 256), arrivalTime: 1_000 + Double(index) / 250)
            }
        }
    }

    static func loadRows() throws -> [[Double]] {
        var root = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        let file = root.appendingPathComponent("datasets/openbci-cyton-eyes-closed/eyes-closed-exg6-exg7.csv")
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces))! }
        }
    }

    @Test func everyValueArrivesAndEveryHoleIsReported() throws {
        let rows = try Self.loadRows()
        #expect(rows.count == 10_500)
        // Lost packets, including one across the counter's wrap (rows 510…513 hold counters 254, 255, 0, 1).
        let lost = Set([10, 11, 12, 511, 512, 4000])
        let descriptor = StreamDescriptor(
            name: "Cyton O1/O2", contentType: .eeg,
            channels: [ChannelInfo(label: "EXG6", unit: "µV"), ChannelInfo(label: "EXG7", unit: "µV")],
            nominalRate: 250, format: .int24, sourceID: "openbci-sample")
        let sink = RecordingSink()
        let summary = SummarySink()
        let pipeline = StreamPipeline(
            source: Replay(rows: rows, lost: lost, descriptor: descriptor), sinks: [sink, summary],
            configuration: .init(ringCapacity: 16384, overflow: .rejectNewest,
                                 timeline: .init(counterModulus: 256)))
        try pipeline.start()
        pipeline.waitUntilFinished()

        let kept = rows.indices.filter { !lost.contains($0) }
        #expect(sink.frames.count == kept.count)
        #expect(zip(sink.frames, kept).allSatisfy { $0.values == rows[$1] })
        #expect(sink.gaps.map(\.missingCount) == [3, 2, 1])
        #expect(sink.gaps.allSatisfy { $0.cause == .deviceCounter })
        #expect(sink.gapPositions == [10, 508, 3995])
        let s = summary.summary
        #expect(s.timestampsIncreasing)
        // Virtual arrivals are exact, so the dejittered span is the recording's own: 10,499 periods.
        #expect(abs((s.lastTimestamp - s.firstTimestamp) - 10_499.0 / 250) < 1e-6)
        for channel in 0..<2 {
            let values = kept.map { rows[$0][channel] }
            let mean = values.reduce(0, +) / Double(values.count)
            #expect(abs(s.means[channel] - mean) < 1e-9 * abs(mean))
            #expect(s.minimums[channel] == values.min() && s.maximums[channel] == values.max())
        }
    }
}
