import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

@Suite("Axon CSV: writer and reader")
struct AxonCSVTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("axon-csv-\(UUID().uuidString).csv").path
    }

    /// Writes, reads back, and checks that every number survives bit for bit.
    static func roundTrip(_ recording: Recording) throws -> Recording {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AxonCSVWriter.write(recording, to: path)
        #expect(try RecordingFormat.detect(bytes: RecordingFile.readAll(path: path)) == .axonCSV)
        let back = try RecordingReader.read(path: path)
        #expect(back.values.count == recording.values.count)
        #expect(zip(back.values, recording.values).allSatisfy { $0.bitPattern == $1.bitPattern })
        #expect(back.timestamps == recording.timestamps)
        #expect(back.counters == recording.counters)
        #expect(back.counterModulus == recording.counterModulus)
        var expected = recording.descriptor
        expected.metadata["file"] = back.descriptor.metadata["file"]
        #expect(back.descriptor == expected)
        return back
    }

    @Test("OpenBCI round trip: 22,490 frames, timestamps, counters wrapping at 256")
    func openBCIRoundTrip() throws {
        let recording = try TestData.openBCI.get()
        let back = try Self.roundTrip(recording)
        #expect(back.frameCount == 22_490)
        #expect(back.counterModulus == 256)
        #expect(back.warnings.isEmpty)
    }

    @Test("Muse and EDF round trips keep units, ranges and Unix timestamps")
    func museAndEDFRoundTrip() throws {
        _ = try Self.roundTrip(try TestData.muse.get())
        let edf = try EDFFileReader().read(path: EDFTestFiles.physioNetPath).segment(from: 10, to: 12)
        let back = try Self.roundTrip(edf)
        #expect(back.frameCount == 320)
        #expect(back.descriptor.channels[5].range == -8092...8092)
        #expect(back.startTime == 1_250_093_710)
    }

    @Test("the layout: signature, descriptor line, header row, rows with empty device_time and counter")
    func layout() throws {
        let descriptor = StreamDescriptor(
            name: "t", contentType: .eeg,
            channels: [ChannelInfo(label: "O1", unit: "µV"), ChannelInfo(label: "O2", unit: "µV")],
            nominalRate: 250, format: .float32, sourceID: "s")
        let recording = Recording(descriptor: descriptor, values: [1.5, -2, 0.1, 1e-300])
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AxonCSVWriter.write(recording, to: path)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6)
        #expect(lines[0] == "# axon-csv 1")
        #expect(lines[1].hasPrefix("# descriptor {\"channels\":[{\"label\":\"O1\",\"unit\":\"µV\"}"))
        #expect(lines[2] == "sample,host_time,device_time,counter,O1 (µV),O2 (µV)")
        #expect(lines[3] == "0,0.0,,,1.5,-2.0")
        #expect(lines[4] == "1,0.004,,,0.1,1e-300")
        let back = try AxonCSVReader().read(path: path)
        #expect(back.values == [1.5, -2, 0.1, 1e-300])
        #expect(back.timestamps == nil && back.counters == nil)
    }

    static let header = """
        # axon-csv 1
        # descriptor {"channels":[{"label":"A","unit":"uV"},{"label":"B","unit":"uV"}],"contentType":"EEG",\
        "format":"float32","metadata":{},"name":"t","nominalRate":100,"sourceID":"s"}
        sample,host_time,device_time,counter,A (uV),B (uV)

        """

    @Test(
        "bad rows give the line and the field",
        arguments: [
            ("0,1.0,,,1,2\n1,1.01,,,x,2\n2,1.02,,,1,2\n", 5, "field 5 (channel 1) is \"x\", not a number"),
            ("0,1.0,,,1,2\n1,1.01,,,1\n2,1.02,,,1,2\n", 5, "5 fields where the header has 6"),
            ("0,1.0,,,1,2,3\n1,1.0,,,1,2\n", 4, "more than the 6 fields of the header"),
            ("-1,1.0,,,1,2\n1,1.0,,,1,2\n", 4, "field 1 (\"sample\") is \"-1\", not a non-negative integer"),
            ("0,nan,,,1,2\n1,1.0,,,1,2\n", 4, "field 2 (\"host_time\") is \"nan\", not a finite number"),
            ("0,1,inf,,1,2\n1,1.0,,,1,2\n", 4, "field 3 (\"device_time\") is \"inf\", not a finite number or empty"),
            (
                "0,1,,99999999999999999999,1,2\n1,1.0,,,1,2\n", 4,
                "field 4 (\"counter\") is \"99999999999999999999\", not a non-negative integer or empty"
            ),
        ] as [(String, Int, String)])
    func badRows(rows: String, line: Int, reason: String) {
        #expect(throws: RecordingError.malformedRow(line: line, reason: reason)) {
            try AxonCSVReader().read(bytes: Array((Self.header + rows).utf8))
        }
    }

    @Test("a cut last line is dropped and described; partial device times are not kept")
    func truncatedAndPartial() throws {
        let text = Self.header + "0,1.0,5.0,7,1,2\n1,1.01,,8,3,4\n2,1.02,5.02,9,5,"
        let recording = try AxonCSVReader().read(bytes: Array(text.utf8))
        #expect(recording.frameCount == 2)
        #expect(recording.values == [1, 2, 3, 4])
        #expect(
            recording.truncation
                == RecordingTruncation(
                    line: 6, byteOffset: text.utf8.count - 16, droppedBytes: 16,
                    reason: "field 6 (channel 2) is \"\", not a number"))
        #expect(recording.timestamps == nil)
        #expect(recording.counters == [7, 8])
        #expect(recording.warnings.contains("1 of 2 rows have no device_time: timestamps not kept"))
    }

    @Test("header problems are typed")
    func headers() {
        #expect(throws: RecordingError.missingHeader(line: 2, expected: "\"# descriptor {…JSON…}\"")) {
            try AxonCSVReader().read(bytes: Array("# axon-csv 1\nsample\n".utf8))
        }
        do {
            _ = try AxonCSVReader().read(bytes: Array("# axon-csv 1\n# descriptor {\"name\":3}\n".utf8))
            Issue.record("accepted a descriptor that is not a StreamDescriptor")
        } catch .undecodableJSON(let line, _, let cause) {
            #expect(line == 2)
            #expect(cause is DecodingError, "the decoder's error is kept as a value: \(cause)")
        } catch {
            Issue.record("unexpected \(error)")
        }
        let wrongHeader = Self.header.replacingOccurrences(of: "B (uV)", with: "C (uV)")
        do {
            _ = try AxonCSVReader().read(bytes: Array(wrongHeader.utf8))
            Issue.record("accepted a header row that does not match the descriptor")
        } catch .malformedHeader(let line, let reason) {
            #expect(line == 3 && reason.contains("sample,host_time,device_time,counter,A (uV),B (uV)"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        let zeroRate = Self.header.replacingOccurrences(of: "\"nominalRate\":100", with: "\"nominalRate\":0")
        #expect(
            throws: RecordingError.malformedHeader(
                line: 2, reason: "nominal rate 0.0: a recording needs a finite rate > 0")
        ) {
            try AxonCSVReader().read(bytes: Array(zeroRate.utf8))
        }
    }

    @Test("writer errors carry errno")
    func writerErrors() {
        let recording = Recording(
            descriptor: StreamDescriptor(
                name: "t", contentType: .eeg, channels: [ChannelInfo(label: "A", unit: "")],
                nominalRate: 1, format: .float32, sourceID: "s"), values: [1])
        #expect(throws: AxonCSVWriterError.cannotCreate(path: "/nonexistent/dir/x.csv", errno: ENOENT)) {
            try AxonCSVWriter.write(recording, to: "/nonexistent/dir/x.csv")
        }
    }
}
