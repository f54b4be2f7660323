import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// The writer's bytes, checked without an external reader: header fields, scaling and clipping, TALs, spilling,
/// the crash-safe count, the final record, errors.
struct EDFWriterTests {
    static let descriptor = StreamDescriptor(
        name: "Test EEG", contentType: .eeg,
        channels: [
            ChannelInfo(label: "T3", unit: "µV"), ChannelInfo(label: "O1", unit: "µV", range: -100...100),
        ],
        nominalRate: 250, format: .float32, sourceID: "test")

    static func temporaryPath(_ ext: String = "edf") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("axon-edf-\(UUID().uuidString).\(ext)").path
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func field(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> String {
        String(decoding: bytes[offset..<(offset + width)], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// The per-signal field `index` (0 label … 9 reserved) of signal `signal` among `signals`.
    static func signalField(_ bytes: [UInt8], signals: Int, field: Int, signal: Int) -> String {
        let widths = [16, 80, 8, 8, 8, 8, 8, 80, 8, 32]
        let offset = 256 + widths[..<field].reduce(0, +) * signals + widths[field] * signal
        return Self.field(bytes, offset, widths[field])
    }

    @Test func headerFieldsAndCrashSafeCount() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try EDFWriter(
            path: path, descriptor: Self.descriptor, startUnixTime: 1_763_812_345.75,  // 2025-11-22 11:52:25 UTC
            options: .init(patient: .init(code: "P 01", sex: "F", name: "Ada Lovelace"), technician: "tech"))
        var header = try Self.bytes(path)
        #expect(header.count == 256 * 4)
        #expect(Self.field(header, 0, 8) == "0")
        #expect(Self.field(header, 8, 80) == "P_01 F X Ada_Lovelace")
        #expect(Self.field(header, 88, 80) == "Startdate 22-NOV-2025 X tech Test_EEG")
        #expect(Self.field(header, 168, 8) == "22.11.25")
        #expect(Self.field(header, 176, 8) == "11.52.25")
        #expect(Self.field(header, 184, 8) == "1024")
        #expect(Self.field(header, 192, 44) == "EDF+C")
        #expect(Self.field(header, 236, 8) == "-1")
        #expect(Self.field(header, 244, 8) == "1")
        #expect(Self.field(header, 252, 4) == "3")
        let labels = (0..<3).map { Self.signalField(header, signals: 3, field: 0, signal: $0) }
        #expect(labels == ["T3", "O1", "EDF Annotations"])
        #expect((0..<3).map { Self.signalField(header, signals: 3, field: 2, signal: $0) } == ["uV", "uV", ""])
        #expect((0..<3).map { Self.signalField(header, signals: 3, field: 3, signal: $0) } == ["-3276.7", "-100", "-1"])
        #expect((0..<3).map { Self.signalField(header, signals: 3, field: 4, signal: $0) } == ["3276.7", "100", "1"])
        let digitalMinima = (0..<3).map { Self.signalField(header, signals: 3, field: 5, signal: $0) }
        #expect(digitalMinima == ["-32767", "-32767", "-32768"])
        #expect((0..<3).map { Self.signalField(header, signals: 3, field: 8, signal: $0) } == ["250", "250", "336"])
        #expect(writer.recordSize == 2 * 250 * 2 + 672)

        // Three records appended, not closed (as if the process were killed now): the header counts all three.
        for i in 0..<(3 * 250 + 100) { try writer.append([Double(i % 100), -Double(i % 50)]) }
        header = try Self.bytes(path)
        #expect(Self.field(header, 236, 8) == "3")
        #expect(header.count == 1024 + 3 * writer.recordSize)
        #expect(writer.flushedRecordCount == 3)
        try writer.close()
        header = try Self.bytes(path)
        #expect(Self.field(header, 236, 8) == "4")
        #expect(writer.paddedSamples == 150)
        #expect(header.count == 1024 + 4 * writer.recordSize)
    }

    @Test func scalingClipsAndCountsNeverWraps() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try EDFWriter(path: path, descriptor: Self.descriptor, startUnixTime: 0)
        let inputs: [[Double]] = [[0, 0], [3276.7, 100], [-3276.7, -100], [5000, 101], [-1e9, -250], [.nan, 50.0],
                                  [12.34, .nan]]
        for input in inputs { try writer.append(input) }
        for _ in inputs.count..<250 { try writer.append([0, 0]) }
        #expect(writer.clippedSamples == [3, 3])
        let bytes = try Self.bytes(path)
        func digital(_ channel: Int, _ sample: Int) -> Int16 {
            let offset = 1024 + (channel * 250 + sample) * 2
            return Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
        }
        #expect((0..<7).map { digital(0, $0) } == [0, 32767, -32767, 32767, -32767, -32767, 123])
        // O1: ±100 over ±32767; NaN holds the previous sample.
        #expect((0..<7).map { digital(1, $0) } == [0, 32767, -32767, 32767, -32767, 16384, 16384])
    }

    @Test func talsKeepTimeAndSpillWithoutLoss() throws {
        let path = Self.temporaryPath("bdf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try EDFWriter(
            path: path, descriptor: Self.descriptor, startUnixTime: 1000,
            options: .init(format: .bdfPlus, annotationBytesPerRecord: 128, startAnnotation: "start"))
        writer.annotate(onset: 1.004, duration: 1.25, text: "eyes\u{14}closed")
        for k in 0..<6 { writer.annotate(unixTime: 1001.5 + Double(k) / 100, text: "marker \(k)") }
        writer.annotate(onset: 2.5, text: String(repeating: "é", count: 100))  // cut to fit one record
        for _ in 0..<(4 * 250) { try writer.append([1, 2]) }
        try writer.close()
        #expect(writer.annotationsWritten == 9)
        #expect(writer.truncatedAnnotationCount == 1)
        let bytes = try Self.bytes(path)
        #expect(bytes[0] == 0xFF && Self.field(bytes, 1, 7) == "BIOSEMI" && Self.field(bytes, 192, 44) == "BDF+C")
        #expect(Self.signalField(bytes, signals: 3, field: 0, signal: 2) == "BDF Annotations")
        let recordSize = writer.recordSize
        #expect(recordSize == 2 * 250 * 3 + 129)
        func annotationBytes(_ record: Int) -> String {
            let start = 256 * 4 + record * recordSize + 2 * 250 * 3
            let text = String(decoding: bytes[start..<(start + 129)], as: UTF8.self)
            return String(text.reversed().drop { $0 == "\0" }.reversed())
        }
        #expect(annotationBytes(0) == "+0\u{14}\u{14}\0+0\u{14}start\u{14}")
        // Record 1: the 1.004 s annotation and as many 1.5 s markers as fit 129 bytes; the rest spill to record 2.
        let record1 = annotationBytes(1)
        #expect(record1.hasPrefix(
            "+1\u{14}\u{14}\0+1.004\u{15}1.25\u{14}eyes closed\u{14}\0+1.5\u{14}marker 0\u{14}\0"))
        let all = (0..<4).map(annotationBytes).joined()
        for k in 0..<6 { #expect(all.contains("\u{14}marker \(k)\u{14}"), "marker \(k)") }
        #expect(all.contains("+1.51\u{14}marker 1") && all.contains("+1.55\u{14}marker 5"))
        #expect(annotationBytes(3) == "+3\u{14}\u{14}")  // the helper trims the trailing NULs
        // Submission order is kept across the spill.
        let order = (0..<6).map { all.range(of: "marker \($0)")!.lowerBound }
        #expect(order == order.sorted())
    }

    @Test func subsecondStartGoesIntoTheTimeKeepingTALs() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try EDFWriter(path: path, descriptor: Self.descriptor, startUnixTime: 1_763_812_345.75)
        writer.annotate(unixTime: 1_763_812_347.0, text: "two")  // 1.25 s after the first sample
        for _ in 0..<(3 * 250) { try writer.append([0, 0]) }
        try writer.close()
        let bytes = try Self.bytes(path)
        #expect(Self.field(bytes, 176, 8) == "11.52.25")
        func tals(_ record: Int) -> String {
            let start = 1024 + record * writer.recordSize + 2 * 250 * 2
            return String(decoding: bytes[start..<(start + 40)], as: UTF8.self)
        }
        #expect(tals(0).hasPrefix("+0.75\u{14}\u{14}\0+0.75\u{14}Recording starts\u{14}\0"))
        #expect(tals(1).hasPrefix("+1.75\u{14}\u{14}\0+2\u{14}two\u{14}\0"))
        #expect(tals(2).hasPrefix("+2.75\u{14}\u{14}\0\0"))
    }

    @Test func finalRecordDropAndEmptyFile() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try EDFWriter(
            path: path, descriptor: Self.descriptor, startUnixTime: 0,
            options: .init(startAnnotation: nil, finalRecord: .drop))
        for _ in 0..<(250 + 249) { try writer.append([1, 1]) }
        try writer.close()
        #expect(writer.recordCount == 1 && writer.frameCount == 250 && writer.paddedSamples == 0)
        #expect(Self.field(try Self.bytes(path), 236, 8) == "1")
        #expect(throws: EDFWriterError.closed(path: path)) { try writer.append([1, 1]) }

        let empty = try EDFWriter(path: path, descriptor: Self.descriptor, startUnixTime: 0)
        try empty.close()
        #expect(Self.field(try Self.bytes(path), 236, 8) == "0")
    }

    @Test func errorsSayWhatIsWrong() throws {
        var odd = Self.descriptor
        odd.nominalRate = 100.5
        #expect(throws: EDFWriterError.nonIntegerSamplesPerRecord(rate: 100.5, recordDuration: 1)) {
            try EDFWriter(path: Self.temporaryPath(), descriptor: odd, startUnixTime: 0)
        }
        // Two-second records make 100.5 Hz whole.
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try EDFWriter(path: path, descriptor: odd, startUnixTime: 0, options: .init(recordDuration: 2))
        #expect(writer.samplesPerRecord == 201)
        #expect(throws: EDFWriterError.cannotCreate(path: "/nonexistent/x.edf", errno: ENOENT)) {
            try EDFWriter(path: "/nonexistent/x.edf", descriptor: Self.descriptor, startUnixTime: 0)
        }
        #expect(throws: EDFWriterError.invalidRange(channel: "T3", range: "-1e+300...1e+300")) {
            try EDFWriter(
                path: Self.temporaryPath(), descriptor: Self.descriptor, startUnixTime: 0,
                options: .init(ranges: [-1e300...1e300]))
        }
        let message = EDFWriterError.nonIntegerSamplesPerRecord(rate: 100.5, recordDuration: 1).description
        #expect(message.contains("100.5 Hz"))
    }

    @Test(arguments: [
        (419_430.35, true, "419430.4"), (-419_430.4, false, "-419431"), (3276.7, true, "3276.7"),
        (-3276.7, false, "-3276.7"), (0.1234567, true, "0.123457"), (-0.0, false, "0"), (12_345_678, true, "12345678"),
    ])
    func headerNumbersFitEightCharactersRoundingOutward(value: Double, up: Bool, text: String) {
        #expect(EDFHeaderBuilder.field(value, roundingUp: up) == text)
    }

    @Test func csvSinkWritesHeaderAndEveryRow() throws {
        let path = Self.temporaryPath("csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = SimulatedSource(configuration: .init(
            channelLabels: ["T3", "O1"], noise: 0, duration: 2, realTime: false, lostSamples: [100, 101]))
        let sink = CSVSink(path: path)
        let pipeline = StreamPipeline(
            source: source, sinks: [sink], configuration: .init(overflow: .rejectNewest, timeline: .init(clock: nil)))
        try pipeline.start()
        pipeline.waitUntilFinished()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "# axon-csv 1")
        #expect(lines[1].hasPrefix("# descriptor {"))
        #expect(lines[2] == "sample,host_time,device_time,counter,T3 (µV),O1 (µV)")
        #expect(lines.count == 3 + 498)
        let row = lines[152].split(separator: ",", omittingEmptySubsequences: false)
        #expect(row.count == 6)
        #expect(row[0] == "151" && row[3] == "151")  // sample 149 of the file is device sample 151: 2 were lost
        #expect(Double(row[4]) == source.idealValue(channel: 0, index: 151))
        #expect(Double(row[2]) == 151.0 / 250)

        // Axon's own reader takes it back: 498 frames, counters jumping over the two lost samples.
        let recording = try AxonCSVReader().read(path: path)
        #expect(recording.frameCount == 498 && recording.channelLabels == ["T3", "O1"])
        #expect(recording.counters?[149] == 151 && recording.value(frame: 149, channel: 0) == Double(row[4]))
    }
}
