import Testing

@testable import AxonRecording

@Suite("Recording format detection")
struct RecordingFormatTests {
    @Test(arguments: [
        ("%OpenBCI Raw EXG Data", RecordingFormat.openBCIText),
        ("%OpenBCI Raw EXG Data\r", .openBCIText),
        ("\u{FEFF}%OpenBCI Raw EXG Data", .openBCIText),
        ("timestamps,TP9,AF7,AF8,TP10,Right AUX,Marker", .museCSV),
        ("timestamps,TP9,AF7,AF8,TP10,Right AUX", .museCSV),
        ("timestamps,X,Y,Z", .museCSV),
        ("# axon-csv 1", .axonCSV),
        ("0       X X X", .edf),
        ("\u{FF}BIOSEMI", .bdf),
    ])
    func recognisesFirstLines(line: String, format: RecordingFormat) {
        #expect(RecordingFormat.detect(firstLine: line) == format)
    }

    @Test(arguments: ["", "0      X X X", "# axon-csv 2", "Sample Index, EXG Channel 0", "timestamps", "%OpenBCI"])
    func rejectsOtherFirstLines(line: String) {
        #expect(RecordingFormat.detect(firstLine: line) == nil)
    }

    @Test func readerDispatchesOnTheFirstLine() throws {
        let openBCI = try RecordingReader.read(path: TestData.openBCIPath)
        #expect(openBCI.frameCount == 22_490 && openBCI.channelLabels.first == "EXG0")
        #expect(openBCI.descriptor.metadata["format"] == "OpenBCI GUI text (OpenBCI Raw EXG Data)")
        let muse = try RecordingReader.read(path: TestData.musePath)
        #expect(muse.frameCount == 3_584 && muse.channelLabels.first == "TP9")
        #expect(muse.descriptor.metadata["format"] == "muse-lsl CSV")
    }

    @Test func unsupportedFormatQuotesTheFirstLine() {
        let other = Array("1       X X X X                                                    \n".utf8)
        let firstLine = "1       X X X X                                                    "
        #expect(throws: RecordingError.unsupportedFormat(firstLine: firstLine)) {
            try RecordingReader.read(bytes: other, sourceName: "x.edf")
        }
        // EDF's first bytes with no header behind them: EDF's reader says so, naming the data.
        let edfLike = Array("0       X X X X                                                    \n".utf8)
        #expect(throws: RecordingError.edf(path: "x.edf", problem: .headerTruncated(expected: 256, actual: 68))) {
            try RecordingReader.read(bytes: edfLike, sourceName: "x.edf")
        }
        #expect(throws: RecordingError.unsupportedFormat(firstLine: "")) {
            try RecordingReader.read(bytes: [], sourceName: "empty")
        }
        let message = "\(RecordingError.unsupportedFormat(firstLine: "hello"))"
        #expect(message.contains("\"hello\"") && message.contains("%OpenBCI Raw EXG Data"))
    }
}
