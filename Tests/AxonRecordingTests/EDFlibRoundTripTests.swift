import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// Files written by ``EDFWriter`` read back by EDFlib, the reference C library (through ``EDFFileReader``): the
/// third reader of acceptance 1 beside pyedflib and MNE (`EDFInteropTests`).
@Suite("EDF+/BDF+ written by Axon, read by EDFlib")
struct EDFlibRoundTripTests {
    @Test("ten minutes of 4-channel 250 Hz data and 80 annotations come back exactly", arguments: [EDFWriter.Format.edfPlus, .bdfPlus])
    func tenMinutes(format: EDFWriter.Format) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-edflib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ten-minutes.\(format.fileExtension)").path
        let values = EDFInteropTests.signal(seconds: 600)
        let labels = EDFInteropTests.labels
        let descriptor = StreamDescriptor(
            name: "Test EEG", contentType: .eeg, channels: labels.map { ChannelInfo(label: $0, unit: "uV") },
            nominalRate: 250, format: .float32, sourceID: "test")
        let writer = try EDFWriter(path: path, descriptor: descriptor, startUnixTime: 1_763_800_000, options: .init(format: format))
        var expected: [(frame: Int, text: String)] = [(0, "Recording starts")]
        for (k, second) in stride(from: 70, to: 600, by: 10).enumerated() {
            expected.append((second * 250, "zone: Relaxation \(25 * (1 + k % 4))%"))
        }
        for k in 0..<26 { expected.append((30_751 + 5 * k, "marker \(k)")) }  // a burst that spills over records
        for annotation in expected.dropFirst() {
            writer.annotate(onset: Double(annotation.frame) / 250, text: annotation.text)
        }
        var frame = [Double](repeating: 0, count: 4)
        for i in 0..<values[0].count {
            for c in 0..<4 { frame[c] = values[c][i] }
            try writer.append(frame)
        }
        try writer.close()

        let recording = try EDFFileReader().read(path: path)
        #expect(recording.channelLabels == labels)
        #expect(recording.descriptor.channels.map(\.unit) == Array(repeating: "uV", count: 4))
        #expect(recording.sampleRate == 250)
        #expect(recording.frameCount == 150_000 && recording.duration == 600)
        #expect(recording.startTime == 1_763_800_000)
        let step = (2 * format.defaultRange.upperBound) / Double(2 * format.digitalMaximum)
        var worst = 0.0
        for c in 0..<4 {
            for i in 0..<recording.frameCount {
                worst = max(worst, abs(recording.value(frame: i, channel: c) - values[c][i]))
            }
        }
        #expect(worst <= step, "worst error \(worst) against a digital step of \(step)")
        let markers = recording.markers.map { (frame: $0.frame, text: $0.text ?? "") }
        #expect(markers.count == expected.count)
        for annotation in expected {
            #expect(markers.contains { $0.text == annotation.text && abs($0.frame - annotation.frame) <= 1 },
                    "\(annotation.text) at frame \(annotation.frame)")
        }
    }
}
