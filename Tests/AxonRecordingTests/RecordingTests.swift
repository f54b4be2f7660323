import AxonStreams
import Testing

@testable import AxonRecording

@Suite("Recording: channels and segments")
struct RecordingTests {
    /// EXG6/EXG7, 34–76 s: the 10,500 eyes-closed frames, identical to the cut the DSP tests use.
    @Test func eyesClosedSegmentMatchesTheDatasetCut() throws {
        let recording = try TestData.openBCI.get()
        let segment = try recording.selecting(channels: ["EXG6", "EXG7"]).segment(from: 34, to: 76)
        #expect(segment.frameCount == 10_500)
        #expect(segment.channelLabels == ["EXG6", "EXG7"])
        #expect(segment.sampleRate == 250)
        #expect(abs(segment.duration - 42) < 1e-9)
        #expect(segment.timestamps?.first == recording.timestamps?[8_500])
        #expect(segment.counters?.first == recording.counters?[8_500])
        #expect(segment.descriptor.metadata["sourceColumn.EXG6"] == "EXG Channel 6")
        #expect(segment.descriptor.metadata["sourceColumn.EXG0"] == nil)

        let rows = try TestData.lines(of: TestData.eyesClosedCSVPath).dropFirst()
        let expected = rows.flatMap { row in
            row.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces))! }
        }
        #expect(expected.count == 21_000)
        #expect(segment.values == expected)
        #expect(try segment.channel("EXG7") == stride(from: 1, to: 21_000, by: 2).map { expected[$0] })
    }

    @Test func selectionKeepsTheOrderGivenAndMatchesCaseInsensitively() throws {
        let recording = try TestData.openBCI.get()
        let picked = try recording.selecting(channels: ["exg7", "EXG0"])
        #expect(picked.channelLabels == ["EXG7", "EXG0"])
        #expect(Array(picked.frame(0)) == [1740.11, 61379.36])
        #expect(picked.frameCount == recording.frameCount)
        #expect(try recording.channelIndex(of: "Exg3") == 3)
    }

    @Test func unknownLabelNamesTheAvailableOnes() throws {
        let recording = try TestData.openBCI.get()
        let available = (0..<8).map { "EXG\($0)" }
        #expect(throws: RecordingError.unknownChannel(label: "O1", available: available)) {
            try recording.selecting(channels: ["EXG6", "O1"])
        }
        let message = "\(RecordingError.unknownChannel(label: "O1", available: available))"
        #expect(message == "no channel \"O1\"; available: EXG0, EXG1, EXG2, EXG3, EXG4, EXG5, EXG6, EXG7")
        #expect(throws: RecordingError.self) { try recording.channel("T3") }
    }

    @Test(arguments: [(-1.0, 10.0), (10.0, 5.0), (5.0, 5.0), (0.0, 100.0), (Double.nan, 1.0), (0.0, Double.infinity)])
    func invalidSegmentsAreRejected(from: Double, to: Double) throws {
        let recording = try TestData.openBCI.get()
        #expect(throws: RecordingError.self) { try recording.segment(from: from, to: to) }
    }

    @Test func wholeRecordingAsASegment() throws {
        let recording = try TestData.openBCI.get()
        let all = try recording.segment(from: 0, to: recording.duration)
        #expect(all.frameCount == recording.frameCount && all.values == recording.values)
    }

    @Test func segmentRenumbersMarkers() throws {
        let muse = try TestData.muse.get()
        let segment = try muse.segment(from: 1, to: 5)  // frames 256..<1280
        #expect(segment.frameCount == 1_024)
        let inside = muse.markers.filter { (256..<1_280).contains($0.frame) }
        #expect(segment.markers.map(\.frame) == inside.map { $0.frame - 256 })
        #expect(segment.markers.map(\.value) == inside.map(\.value))
        #expect(segment.timestamps?.first == muse.timestamps?[256])
    }

    @Test func timeWithoutTimestampsCountsFromTheFirstFrame() {
        let descriptor = StreamDescriptor(
            name: "t", contentType: .eeg, channels: [ChannelInfo(label: "A", unit: "µV")], nominalRate: 200,
            format: .float32, sourceID: "t")
        let recording = Recording(descriptor: descriptor, values: [1, 2, 3, 4])
        #expect(recording.time(ofFrame: 3) == 0.015)
        #expect(recording.startTime == nil)
        #expect(recording.channel(at: 0) == [1, 2, 3, 4])
    }
}
