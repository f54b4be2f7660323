import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// Files written by ``EDFWriter`` and ``EDFSink``, read back by pyedflib (EDFlib) and MNE.
@Suite(.enabled(if: EDFPeers.available, "needs .venv-peers (scripts/python-peers.sh, run by make test)"))
struct EDFInteropTests {
    static let labels = ["T3", "O1", "T4", "O2"]
    static let rate = 250.0

    /// Deterministic EEG-like data: 10 Hz alpha, 5 Hz theta, a slow drift and noise, within ±500 µV.
    static func signal(seconds: Int) -> [[Double]] {
        var random = SplitMix64(seed: 42)
        let n = seconds * Int(rate)
        return (0..<4).map { channel in
            (0..<n).map { i in
                let t = Double(i) / rate
                return 40 * sin(2 * .pi * 10 * t + Double(channel)) + 15 * sin(2 * .pi * 5 * t)
                    + 100 * sin(2 * .pi * 0.01 * t) + 5 * random.gaussian()
            }
        }
    }

    /// Acceptance 1: ten minutes of 4-channel 250 Hz data with zone and marker annotations (a burst of 25 in one
    /// second, more than a record holds) as EDF+ and BDF+: every sample within one digital step, labels, units,
    /// rate and duration exact, every annotation present with its onset within one sample.
    @Test(arguments: [EDFWriter.Format.edfPlus, .bdfPlus])
    func tenMinutesRoundTrip(format: EDFWriter.Format) throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ten-minutes.\(format.fileExtension)").path
        let values = Self.signal(seconds: 600)
        let descriptor = StreamDescriptor(
            name: "Test EEG", contentType: .eeg, channels: Self.labels.map { ChannelInfo(label: $0, unit: "µV") },
            nominalRate: Self.rate, format: .float32, sourceID: "test")
        let writer = try EDFWriter(
            path: path, descriptor: descriptor, startUnixTime: 1_763_800_000.25, options: .init(format: format))
        var annotations = [EDFPeers.Annotation(onset: 0, text: "Recording starts")]
        let zones = ["Relaxation", "Concentration", "Neutral", "Drowsiness"]
        for (k, second) in stride(from: 70, to: 600, by: 10).enumerated() {
            let text = "zone: \(zones[k % zones.count]) \(25 * (1 + k % 4))%"
            annotations.append(.init(onset: Double(second), text: text))
        }
        for k in 0..<25 {  // a burst: spills over several records
            annotations.append(.init(onset: 123.004 + Double(k) * 0.02, text: "marker \(k) — µ"))
        }
        annotations.append(.init(onset: 599.996, text: "last sample"))
        // Submit the burst and the zones before the data, the rest interleaved: order must not matter.
        for annotation in annotations.dropFirst() where annotation.onset < 200 {
            writer.annotate(onset: annotation.onset, text: annotation.text)
        }
        let frameCount = values[0].count
        var frame = [Double](repeating: 0, count: 4)
        for i in 0..<frameCount {
            for c in 0..<4 { frame[c] = values[c][i] }
            try writer.append(frame)
            if i == 50_000 {
                for annotation in annotations.dropFirst() where annotation.onset >= 200 {
                    writer.annotate(onset: annotation.onset, text: annotation.text)
                }
            }
        }
        try writer.close()
        #expect(writer.recordCount == 600)
        #expect(writer.paddedSamples == 0)
        #expect(writer.clippedSamples == [0, 0, 0, 0])
        #expect(writer.annotationsWritten == annotations.count)
        #expect(writer.pendingAnnotationCount == 0)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == writer.headerSize + 600 * writer.recordSize)

        let step = (2 * format.defaultRange.upperBound) / Double(2 * format.digitalMaximum)
        let (status, output) = try EDFPeers.check(
            file: path,
            expectation: .init(
                labels: Self.labels, units: Array(repeating: "uV", count: 4), rate: Self.rate, duration: 600,
                steps: Array(repeating: step, count: 4), start: 1_763_800_000.25, annotations: annotations),
            values: values)
        #expect(status == 0, "\(output)")
        print(output)
    }

    /// The sink in a pipeline: device-counter gaps become `gap:` annotations and held fill (sample time stays
    /// exact), markers come from another thread, and the partial last record is padded.
    @Test func sinkWithGapsAndMarkers() throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sink.edf").path
        let lost = Set(1000..<1012)
        let source = SimulatedSource(configuration: .init(
            noise: 0, duration: 20.5, realTime: false, lostSamples: lost))
        let sink = EDFSink(path: path)
        sink.annotate(onset: 3.5, duration: 1.25, text: "marker from the test")
        let pipeline = StreamPipeline(
            source: source, sinks: [sink],
            configuration: .init(ringCapacity: 8192, overflow: .rejectNewest, timeline: .init(clock: nil)))
        try pipeline.start()
        pipeline.waitUntilFinished()
        #expect(pipeline.statistics().failures.isEmpty)
        let writer = try #require(sink.writer)
        #expect(writer.filledSamples == 12)
        #expect(writer.frameCount == 5125)
        #expect(writer.paddedSamples == 125)  // 20.5 s → 21 records
        #expect(writer.recordCount == 21)

        // Expected: the ideal values, the held value over the gap, the held last value as padding.
        var values = (0..<4).map { c in (0..<5250).map { source.idealValue(channel: c, index: $0) } }
        for c in 0..<4 {
            for i in lost { values[c][i] = values[c][999] }
            for i in 5125..<5250 { values[c][i] = values[c][5124] }
        }
        let step = 0.1
        let (status, output) = try EDFPeers.check(
            file: path,
            expectation: .init(
                labels: Self.labels, units: Array(repeating: "uV", count: 4), rate: Self.rate, duration: 21,
                steps: Array(repeating: step, count: 4),
                annotations: [
                    .init(onset: 0, text: "Recording starts"), .init(onset: 3.5, text: "marker from the test"),
                    .init(onset: 4, text: "gap: 12 samples (deviceCounter)"),
                ]),
            values: values)
        #expect(status == 0, "\(output)")
        print(output)
    }
}
