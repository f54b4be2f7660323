import AxonStreams
import Testing

@testable import AxonRecording

/// The first 14 s of the Muse P300 recording (datasets/README.md): a header, then 3,584 rows from line 2.
@Suite("Muse CSV reader")
struct MuseCSVReaderTests {
    @Test func loadsTheCut() throws {
        let recording = try TestData.muse.get()
        #expect(recording.frameCount == 3_584)
        #expect(recording.sampleRate == 256)
        #expect(recording.channelLabels == ["TP9", "AF7", "AF8", "TP10", "Right AUX"])
        #expect(recording.descriptor.contentType == .eeg)
        #expect(recording.descriptor.channels.allSatisfy { $0.unit == "µV" })
        #expect(recording.duration == 14)
        #expect(recording.counters == nil && recording.counterModulus == nil)
        #expect(recording.truncation == nil && recording.warnings.isEmpty)
        #expect(recording.descriptor.metadata["measuredRate"] == "256.02")
        #expect(Array(recording.frame(0)) == [-44.922, 27.832, 32.715, 58.105, 82.031])
        #expect(Array(recording.frame(3_583)) == [119.629, 27.344, 37.109, 60.059, 6.836])
    }

    @Test func timestampsAreUnixSeconds() throws {
        let recording = try TestData.muse.get()
        let timestamps = try #require(recording.timestamps)
        #expect(timestamps.first == 1_486_223_115.483)
        #expect(timestamps.last == 1_486_223_129.478)
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// 23 stimulus markers in the cut: 19 of class 1, 4 of class 2, the first on row 20.
    @Test func markersAreKeptAtTheirFrames() throws {
        let recording = try TestData.muse.get()
        #expect(recording.markers.count == 23)
        #expect(recording.markers.filter { $0.value == 1 }.count == 19)
        #expect(recording.markers.filter { $0.value == 2 }.count == 4)
        #expect(recording.markers.prefix(4).map(\.frame) == [20, 189, 362, 522])
        #expect(recording.markers[3].value == 2)
        #expect(recording.channelLabels.contains("Marker") == false)
    }

    @Test func truncatedLastRowKeepsTheRowsBefore() throws {
        let bytes = try RecordingFile.readAll(path: TestData.musePath)
        let cut = bytes.offset(ofLine: 1001) + 20  // row 999, inside its second value
        let recording = try MuseCSVReader().read(bytes: Array(bytes[..<cut]))
        #expect(recording.frameCount == 999)
        #expect(recording.truncation?.line == 1001)
        #expect(recording.truncation?.reason.contains("fields where the header has 7") == true)
    }

    @Test func malformedRowIsAnErrorWithItsLine() throws {
        let bytes = try RecordingFile.readAll(path: TestData.musePath)
        let broken = bytes.replacingLine(101, with: "1486223115.883,1.0,2.0,3.0,4.0,x,0")
        #expect(
            throws: RecordingError.malformedRow(
                line: 101, reason: "field 6 (\"Right AUX\") is \"x\", not a number")
        ) {
            try MuseCSVReader().read(bytes: broken)
        }
    }

    /// Another muse-lsl stream (the accelerometer) gets its rate from the timestamps, rounded.
    @Test func nonEEGStreamRateIsEstimated() throws {
        var text = "timestamps,X,Y,Z\n"
        for i in 0..<104 { text += "\(1_600_000_000 + Double(i) / 52),0.1,0.2,\(Double(i) * 0.01)\n" }
        let recording = try MuseCSVReader().read(bytes: Array(text.utf8))
        #expect(recording.sampleRate == 52)
        #expect(recording.channelLabels == ["X", "Y", "Z"])
        #expect(recording.descriptor.contentType != .eeg)
        #expect(try MuseCSVReader(nominalRate: 50).read(bytes: Array(text.utf8)).sampleRate == 50)
    }
}
