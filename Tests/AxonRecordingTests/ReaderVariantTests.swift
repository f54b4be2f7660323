import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// The shapes the writing applications really produce: a Mind Monitor export whose rows leave off the empty
/// `Elements` field, other column orders, extra columns, BOM and CRLF — and what is still refused.
@Suite("Reader variants")
struct ReaderVariantTests {
    /// Mind Monitor's column list of a 2020 Muse S export: 39 columns, `Elements` last.
    static let mindMonitor2020Columns =
        ["TimeStamp"]
        + MindMonitorCSVReader.bands.flatMap { band in MindMonitorCSVReader.electrodes.map { "\(band)_\($0)" } }
        + ["RAW_TP9", "RAW_AF7", "RAW_AF8", "RAW_TP10", "AUX_RIGHT", "Accelerometer_X", "Accelerometer_Y",
           "Accelerometer_Z", "Gyro_X", "Gyro_Y", "Gyro_Z", "HeadBandOn", "HSI_TP9", "HSI_AF7", "HSI_AF8", "HSI_TP10",
           "Battery", "Elements"]

    /// A small Mind Monitor file of the 2020 shape: `rows` RAW rows at 256 Hz whose lines stop after `Battery` (38
    /// fields under a header of 39), band powers on every row from the 64th, and two `Elements` rows of 39 fields.
    /// Returns the text and the RAW values as written (text and number), row by row.
    static func mindMonitorFile(rows: Int = 300, columnOrder: [Int]? = nil, extraColumn: Bool = false)
        -> (text: String, raw: [[String]], times: [String])
    {
        var header = mindMonitor2020Columns
        if extraColumn { header.insert("Notes", at: 26) }
        let order = columnOrder ?? Array(header.indices)
        func line(_ fields: [String], dropTrailingEmpty: Bool) -> String {
            var ordered = order.map { fields[$0] }
            // Mind Monitor stops the row after its last filled field when only `Elements` is left.
            if dropTrailingEmpty, ordered.last == "" { ordered.removeLast() }
            return ordered.joined(separator: ",")
        }
        var lines = [line(header, dropTrailingEmpty: false)]
        var raw: [[String]] = []
        var times: [String] = []
        var state: UInt64 = 12345
        func value() -> String {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit: Double = Double(state >> 40) / Double(1 << 24)
            return String(format: "%.3f", 700 + unit * 300)
        }
        let rawColumn = header.firstIndex(of: "RAW_TP9")!
        for row in 0..<rows {
            let milliseconds = (row * 1000) / 256
            let time = String(format: "2020-06-01 10:00:%02d.%03d", milliseconds / 1000, milliseconds % 1000)
            var fields = [String](repeating: "", count: header.count)
            fields[0] = time
            if row >= 64 { for band in 1...20 { fields[band] = String(format: "%.6f", 0.5 + Double(band) / 40) } }
            let samples = (0..<4).map { _ in value() }
            for (offset, sample) in samples.enumerated() { fields[rawColumn + offset] = sample }
            fields[rawColumn + 4] = "800.0"
            for accel in (rawColumn + (extraColumn ? 6 : 5))..<(header.count - 2) { fields[accel] = "1" }
            fields[header.count - 2] = "73"
            lines.append(line(fields, dropTrailingEmpty: true))
            raw.append(samples)
            times.append(time)
            if row == 100 || row == 200 {
                var element = [String](repeating: "", count: header.count)
                element[0] = time
                element[header.count - 1] = row == 100 ? "/muse/elements/blink" : "/Marker/1"
                lines.append(line(element, dropTrailingEmpty: false))
            }
        }
        return (lines.joined(separator: "\n") + "\n", raw, times)
    }

    /// Reads a Mind Monitor text and checks the RAW samples and times against what was written.
    static func checkMindMonitor(_ bytes: [UInt8], raw: [[String]], times: [String]) throws {
        #expect(try RecordingFormat.detect(bytes: bytes) == .mindMonitorCSV)
        let file = try MindMonitorCSVReader().read(bytes: bytes)
        let eeg = try #require(file.eeg)
        #expect(eeg.frameCount == raw.count)
        #expect(eeg.channelLabels == ["TP9", "AF7", "AF8", "TP10"])
        for (frame, samples) in raw.enumerated() {
            for (channel, text) in samples.enumerated() {
                #expect(eeg.value(frame: frame, channel: channel) == Double(text)!)
            }
        }
        let first = try #require(eeg.timestamps?.first)
        #expect(first == 1_591_005_600)  // 2020-06-01 10:00:00 taken as UTC
        let lastMilliseconds: Int = (raw.count - 1) * 1000 / 256
        let last: Double = 1_591_005_600 + Double(lastMilliseconds) / 1000
        #expect(eeg.timestamps?.last == last)
        #expect(file.elements.map(\.payload) == ["/muse/elements/blink", "/Marker/1"])
        #expect(eeg.markers.map(\.text) == ["/muse/elements/blink", "/Marker/1"])
        #expect(eeg.truncation == nil)
        #expect(times.count == raw.count)
        let bands = try #require(file.bandPowers)
        #expect(bands.channelCount == 20)
    }

    @Test("a 2020 Mind Monitor export whose rows leave off the empty Elements field reads; RAW equals the file's")
    func mindMonitorShortRows() throws {
        let (text, raw, times) = Self.mindMonitorFile()
        let lines = text.split(separator: "\n")
        #expect(lines[0].split(separator: ",", omittingEmptySubsequences: false).count == 39)
        #expect(lines[1].split(separator: ",", omittingEmptySubsequences: false).count == 38)
        try Self.checkMindMonitor(Array(text.utf8), raw: raw, times: times)
        // Through the generic reader too (what `axon info`/`convert` use).
        let recording = try RecordingReader.read(bytes: Array(text.utf8), sourceName: "mm.csv")
        #expect(recording.frameCount == raw.count)
    }

    @Test("the same with a UTF-8 BOM and CRLF line ends")
    func mindMonitorBOMAndCRLF() throws {
        let (text, raw, times) = Self.mindMonitorFile(rows: 210)
        let bytes = [0xEF, 0xBB, 0xBF] + Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        try Self.checkMindMonitor(bytes, raw: raw, times: times)
    }

    @Test("another column order (TimeStamp not first) and an extra column read")
    func mindMonitorOtherOrder() throws {
        let columns = Self.mindMonitor2020Columns.count + 1
        // TimeStamp second, RAW columns first, the extra `Notes` column kept in the middle.
        var order = Array(0..<columns)
        order.swapAt(0, 1)
        order.swapAt(2, 21)
        let (text, raw, times) = Self.mindMonitorFile(rows: 210, columnOrder: order, extraColumn: true)
        try Self.checkMindMonitor(Array(text.utf8), raw: raw, times: times)
    }

    @Test("what is really broken is still refused")
    func mindMonitorRefusals() throws {
        let (text, _, _) = Self.mindMonitorFile(rows: 20)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // An extra non-empty field after the header's.
        var extra = lines
        extra[5] += ",,surprise"
        #expect(throws: RecordingError.self) {
            try MindMonitorCSVReader().read(bytes: Array(extra.joined(separator: "\n").utf8))
        }
        // Only some RAW columns filled (a row cut in the middle of its RAW fields, yet terminated).
        var cut = lines
        cut[5] = cut[5].split(separator: ",", omittingEmptySubsequences: false).prefix(23).joined(separator: ",")
        let cutBytes = Array(cut.joined(separator: "\n").utf8)
        let error = #expect(throws: RecordingError.self) { try MindMonitorCSVReader().read(bytes: cutBytes) }
        guard case .malformedRow(let line, let reason)? = error else {
            Issue.record("expected a malformed row, got \(String(describing: error))")
            return
        }
        #expect(line == 6)
        #expect(reason.contains("RAW"))
        // A short last line without its terminator is a cut row: the rows before it are kept.
        lines.removeLast()  // the final empty string after the last "\n"
        lines[lines.count - 1] = String(lines[lines.count - 1].prefix(30))
        let file = try MindMonitorCSVReader().read(bytes: Array(lines.joined(separator: "\n").utf8))
        #expect(file.eeg?.frameCount == 19)
        #expect(file.eeg?.truncation != nil)
    }

    @Test("muse-lsl: the timestamps column elsewhere and a trailing separator read")
    func museOtherOrder() throws {
        let text = """
            TP9,timestamps,AF7,AF8,TP10,Right AUX\r
            1.5,1486223115.483,2.5,3.5,4.5,5.5,\r
            -1.25,1486223115.487,2,3,4,5\r

            """
        let recording = try RecordingReader.read(bytes: Array(text.utf8), sourceName: "muse.csv")
        #expect(recording.channelLabels == ["TP9", "AF7", "AF8", "TP10", "Right AUX"])
        #expect(recording.values == [1.5, 2.5, 3.5, 4.5, 5.5, -1.25, 2, 3, 4, 5])
        #expect(recording.timestamps == [1_486_223_115.483, 1_486_223_115.487])
        // A non-empty field past the header's is refused.
        let broken = text.replacingOccurrences(of: "5.5,\r", with: "5.5,9\r")
        #expect(throws: RecordingError.self) { try RecordingReader.read(bytes: Array(broken.utf8), sourceName: "m") }
    }

    @Test("Axon CSV: the start comes from host_time's Unix times when device_time counts from power-on")
    func axonCSVHostTimeStart() throws {
        let text = """
            # axon-csv 1
            # descriptor {"channels":[{"label":"A","unit":"uV"}],"contentType":"EEG","format":"float32",\
            "metadata":{},"name":"t","nominalRate":250,"sourceID":"s"}
            sample,host_time,device_time,counter,A (uV)
            0,1764201600.004,0.0,0,1.5
            1,1764201600.008,0.004,1,2.5
            # marker 1,1,eyes closed
            # marker 0,2

            """
        let recording = try RecordingReader.read(bytes: Array(text.utf8), sourceName: "a.csv")
        #expect(recording.startTime == 1_764_201_600.004)
        #expect(recording.timestamps == [1_764_201_600.004, 1_764_201_600.008])
        #expect(recording.markers == [
            RecordingMarker(frame: 0, value: 2), RecordingMarker(frame: 1, value: 1, text: "eyes closed"),
        ])
        // A comment line that is not a marker is still a malformed row.
        let broken = text.replacingOccurrences(of: "# marker 0,2", with: "# something else")
        #expect(throws: RecordingError.self) { try RecordingReader.read(bytes: Array(broken.utf8), sourceName: "a") }
    }
}
