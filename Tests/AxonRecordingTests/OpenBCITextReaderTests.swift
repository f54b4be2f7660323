import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// The OpenBCI GUI v6 sample file (datasets/README.md): 5 header lines, then 22,490 rows from line 6.
@Suite("OpenBCI text reader")
struct OpenBCITextReaderTests {
    /// 1-based file line of 0-based data row `row`.
    static func line(ofRow row: Int) -> Int { row + 6 }

    @Test func loadsTheSampleFile() throws {
        let recording = try TestData.openBCI.get()
        #expect(recording.frameCount == 22_490)
        #expect(recording.sampleRate == 250)
        #expect(recording.channelCount == 8)
        #expect(recording.channelLabels == (0..<8).map { "EXG\($0)" })
        #expect(recording.descriptor.channels.allSatisfy { $0.unit == "µV" })
        #expect(abs(recording.duration - 89.96) < 1e-9)
        #expect(recording.values.count == 22_490 * 8)
        #expect(recording.truncation == nil)
        #expect(recording.warnings.isEmpty)
        #expect(recording.markers.isEmpty)
        let metadata = recording.descriptor.metadata
        #expect(metadata["board"] == "OpenBCI_GUI$BoardCytonSerial")
        #expect(metadata["sourceColumn.EXG0"] == "EXG Channel 0")
        #expect(metadata["sourceColumn.EXG7"] == "EXG Channel 7")
        #expect(metadata["measuredRate"] == "250.33")
        #expect(recording.descriptor.sourceID == "file:OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
    }

    @Test func firstAndLastRowsHaveTheFilesValues() throws {
        let recording = try TestData.openBCI.get()
        #expect(
            Array(recording.frame(0))
                == [61379.36, 49492.89, -16597.06, -21309.75, 6703.91, -3284.86, 7223.10, 1740.11])
        #expect(
            Array(recording.frame(1))
                == [60973.46, 48972.47, -16279.02, -21050.13, 7045.02, -2887.53, 7593.09, 2118.70])
        #expect(
            Array(recording.frame(22_489))
                == [58705.56, 46972.84, -18624.12, -27123.57, -9153.87, -18340.03, -5887.83, -6470.99])
        #expect(recording.value(frame: 0, channel: 0) == 61379.36)
    }

    /// Every EXG value equals what the standard library's `Double(String)` makes of the same text: the fast
    /// number parser is exact, not merely close.
    @Test func everyValueMatchesTheStandardParser() throws {
        let recording = try TestData.openBCI.get()
        let rows = try TestData.lines(of: TestData.openBCIPath).dropFirst(5)
        #expect(rows.count == 22_490)
        var mismatches = 0
        for (frame, row) in rows.enumerated() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            for channel in 0..<8 {
                let expected = Double(fields[1 + channel].trimmingCharacters(in: .whitespaces))
                if expected != recording.value(frame: frame, channel: channel) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func timestampsAreUnixSeconds() throws {
        let recording = try TestData.openBCI.get()
        let timestamps = try #require(recording.timestamps)
        #expect(timestamps.count == 22_490)
        #expect(timestamps[0] == 1_557_936_053.329)
        #expect(timestamps[1] == 1_557_936_053.336)
        #expect(timestamps[2] == 1_557_936_053.336)  // the GUI stamps packets: rows 1 and 2 share one
        #expect(timestamps[22_489] == 1_557_936_143.166)
        #expect(recording.startTime == 1_557_936_053.329)
        #expect(recording.time(ofFrame: 2) == 1_557_936_053.336)
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func sampleIndexIsAWrappingCounter() throws {
        let recording = try TestData.openBCI.get()
        let counters = try #require(recording.counters)
        #expect(recording.counterModulus == 256)
        #expect(Array(counters[0..<3]) == [0, 1, 2])
        #expect(counters[255] == 255 && counters[256] == 0)
        #expect(counters[22_489] == 217)
        // Every step is +1 modulo 256: no sample was lost in this file.
        #expect(zip(counters, counters.dropFirst()).allSatisfy { ($0 + 1) % 256 == $1 })
        #expect(counters.max() == 255)
    }

    /// A file cut in the middle of row 1000 (line 1006) keeps rows 0…999 and says where it was cut.
    @Test(arguments: [1, 30, 70, 120])
    func truncatedLastRowKeepsEveryCompleteRow(bytesOfLastRow: Int) throws {
        let bytes = try TestData.openBCIBytes.get()
        let cut = bytes.offset(ofLine: Self.line(ofRow: 1000))
        let recording = try OpenBCITextReader().read(bytes: Array(bytes[..<(cut + bytesOfLastRow)]))
        #expect(recording.frameCount == 1000)
        let truncation = try #require(recording.truncation)
        #expect(truncation.line == 1006)
        #expect(truncation.byteOffset == cut)
        #expect(truncation.droppedBytes == bytesOfLastRow)
        #expect(recording.warnings.count == 1 && recording.warnings[0].contains("line 1006"))
        let full = try TestData.openBCI.get()
        #expect(recording.values == Array(full.values[0..<(1000 * 8)]))
        #expect(recording.timestamps == Array(full.timestamps![0..<1000]))
        #expect(recording.counters == Array(full.counters![0..<1000]))
    }

    /// A cut inside the last column (the formatted time, which is not kept) leaves every kept value intact: the
    /// row is kept, with a warning about the missing line terminator.
    @Test func cutInsideTheFormattedTimeKeepsTheRow() throws {
        let bytes = try TestData.openBCIBytes.get()
        let start = bytes.offset(ofLine: Self.line(ofRow: 1000))
        let rowText = bytes.line(Self.line(ofRow: 1000))
        let recording = try OpenBCITextReader().read(bytes: Array(bytes[..<(start + rowText.utf8.count - 3)]))
        #expect(recording.frameCount == 1001)
        #expect(recording.truncation == nil)
        #expect(recording.warnings.count == 1 && recording.warnings[0].contains("no line terminator"))
        #expect(recording.value(frame: 1000, channel: 0) == (try TestData.openBCI.get()).value(frame: 1000, channel: 0))
    }

    /// A crash that left zeroed blocks after the last complete row: the NUL tail is a truncation, not an error.
    @Test func zeroFilledTailIsATruncation() throws {
        let bytes = try TestData.openBCIBytes.get()
        let end = bytes.offset(ofLine: Self.line(ofRow: 500))
        let recording = try OpenBCITextReader().read(bytes: Array(bytes[..<end]) + [UInt8](repeating: 0, count: 4096))
        #expect(recording.frameCount == 500)
        #expect(recording.truncation?.line == 506)
        #expect(recording.truncation?.droppedBytes == 4096)
    }

    /// Policy: a bad row that is not the last line fails the read with its line number (rows are never skipped
    /// silently — a hole in a recording must not go unnoticed).
    @Test(arguments: [
        (", 61379.36, abc", "\"EXG Channel 1\""),
        ("17, 1.0, 2.0", "3 fields where the header has 25"),
    ])
    func malformedRowInTheMiddleIsAnErrorWithItsLine(replacement: String, reasonContains: String) throws {
        let bytes = try TestData.openBCIBytes.get()
        let line = Self.line(ofRow: 777)
        var text = replacement
        if replacement.hasPrefix(",") {
            // Keep the row's other fields; put the junk into EXG Channel 1.
            var fields = bytes.line(line).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[2] = " abc"
            text = fields.joined(separator: ",")
        }
        let broken = bytes.replacingLine(line, with: text)
        #expect {
            try OpenBCITextReader().read(bytes: broken)
        } throws: { error in
            guard case .malformedRow(let at, let reason) = error as? RecordingError else { return false }
            return at == 783 && reason.contains(reasonContains)
        }
        let message = "\(RecordingError.malformedRow(line: 783, reason: "x"))"
        #expect(message.hasPrefix("line 783: malformed row"))
    }

    @Test func extraFieldIsAnError() throws {
        let bytes = try TestData.openBCIBytes.get()
        let line = Self.line(ofRow: 10)
        let broken = bytes.replacingLine(line, with: bytes.line(line) + ",42")
        #expect(throws: RecordingError.malformedRow(line: 16, reason: "more than the 25 fields of the header")) {
            try OpenBCITextReader().read(bytes: broken)
        }
    }

    @Test func missingSampleRateLineIsAMissingHeader() throws {
        let bytes = try TestData.openBCIBytes.get()
        let broken = bytes.replacingLine(3, with: "%Something else = 1")
        #expect(throws: RecordingError.missingHeader(line: 5, expected: "a \"%Sample Rate = R Hz\" line before it")) {
            try OpenBCITextReader().read(bytes: broken)
        }
    }

    @Test func missingExgColumnIsAMissingHeader() throws {
        let bytes = try TestData.openBCIBytes.get()
        let broken = bytes.replacingLine(5, with: bytes.line(5).replacingOccurrences(of: "EXG Channel 7", with: "X"))
        #expect(throws: RecordingError.missingHeader(line: 5, expected: "a column \"EXG Channel 7\"")) {
            try OpenBCITextReader().read(bytes: broken)
        }
    }

    @Test func headerOnlyFileIsAMissingHeader() {
        let bytes = Array("%OpenBCI Raw EXG Data\n%Number of channels = 8\n%Sample Rate = 250 Hz\n".utf8)
        #expect(throws: RecordingError.self) { try OpenBCITextReader().read(bytes: bytes) }
        do {
            _ = try OpenBCITextReader().read(bytes: bytes)
        } catch {
            guard case .missingHeader(let line, _) = error else {
                Issue.record("expected .missingHeader, got \(error)")
                return
            }
            #expect(line == 4)
        }
    }

    @Test func badSampleRateIsAMalformedHeader() throws {
        let bytes = try TestData.openBCIBytes.get()
        let broken = bytes.replacingLine(3, with: "%Sample Rate = fast Hz")
        let expected = RecordingError.malformedHeader(line: 3, reason: "sample rate \"fast Hz\" is not a rate in Hz")
        #expect(throws: expected) {
            try OpenBCITextReader().read(bytes: broken)
        }
    }

    /// A header with no data rows is a valid, empty recording.
    @Test func noRowsGivesAnEmptyRecording() throws {
        let bytes = try TestData.openBCIBytes.get()
        let recording = try OpenBCITextReader().read(bytes: Array(bytes[..<bytes.offset(ofLine: 6)]))
        #expect(recording.frameCount == 0 && recording.channelCount == 8 && recording.duration == 0)
        #expect(recording.timestamps == [] && recording.counters == [])
    }

    /// Markers: non-zero values of the `Marker Channel` column, at their frames.
    @Test func nonZeroMarkersAreKept() throws {
        let bytes = try TestData.openBCIBytes.get()
        var edited = bytes
        for (row, value) in [(3, "1"), (400, "2.5")] {
            var fields = edited.line(Self.line(ofRow: row)).split(separator: ",", omittingEmptySubsequences: false)
                .map(String.init)
            fields[23] = value
            edited = edited.replacingLine(Self.line(ofRow: row), with: fields.joined(separator: ","))
        }
        let recording = try OpenBCITextReader().read(bytes: edited)
        #expect(recording.markers == [RecordingMarker(frame: 3, value: 1), RecordingMarker(frame: 400, value: 2.5)])
    }

    @Test func missingFileReportsErrno() {
        #expect(throws: RecordingError.cannotOpen(path: "/nonexistent/axon.txt", errno: ENOENT)) {
            try OpenBCITextReader().read(path: "/nonexistent/axon.txt")
        }
        let message = "\(RecordingError.cannotOpen(path: "/nonexistent/axon.txt", errno: ENOENT))"
        #expect(message.contains("No such file or directory") && message.contains("/nonexistent/axon.txt"))
    }

    @Test func directoryReportsErrno() {
        #expect(throws: RecordingError.readFailed(path: "/tmp", errno: EISDIR)) {
            try OpenBCITextReader().read(path: "/tmp")
        }
    }

    /// Loads fast enough for interactive use even in a debug build (the release figure is in the README).
    @Test func loadsQuickly() throws {
        let bytes = try TestData.openBCIBytes.get()
        let start = Date()
        let recording = try OpenBCITextReader().read(bytes: bytes)
        let seconds = Date().timeIntervalSince(start)
        #expect(recording.frameCount == 22_490)
        #expect(seconds < 5)
    }
}
