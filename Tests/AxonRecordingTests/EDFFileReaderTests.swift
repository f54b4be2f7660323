import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

@Suite("EDF/BDF reader (EDFlib)")
struct EDFFileReaderTests {
    static let bytes: [UInt8] = (try? Array(Data(contentsOf: URL(fileURLWithPath: EDFTestFiles.physioNetPath)))) ?? []

    @Test("the PhysioNet EDF+ file: 64 channels at 160 Hz, 9760 frames, labels, ranges, start time, T0")
    func physioNet() throws {
        let recording = try EDFFileReader().read(path: EDFTestFiles.physioNetPath)
        #expect(recording.channelCount == 64)
        #expect(recording.sampleRate == 160)
        #expect(recording.frameCount == 9760)
        #expect(recording.duration == 61)
        #expect(Array(recording.channelLabels.prefix(4)) == ["Fc5.", "Fc3.", "Fc1.", "Fcz."])
        #expect(recording.channelLabels.last == "Iz..")
        #expect(recording.descriptor.metadata["sourceColumn.Fc5."] == "Fc5.            ")
        #expect(recording.descriptor.channels.allSatisfy { $0.unit == "uV" && $0.range == -8092...8092 })
        #expect(recording.descriptor.metadata["format"] == "EDF+")
        #expect(recording.descriptor.metadata["edf.records"] == "61")
        #expect(recording.descriptor.format == .int16)
        #expect(recording.descriptor.contentType == .eeg)
        // 12.08.09 16.15.00, taken as UTC.
        #expect(recording.startTime == 1_250_093_700)
        #expect(recording.timestamps?[160] == 1_250_093_701)
        #expect(recording.markers == [RecordingMarker(frame: 0, value: 0, text: "T0")])
        // PhysioNet writes a prefilter on the annotation signal, which EDFlib refuses: read from a blanked copy.
        #expect(recording.warnings.count == 1)
        #expect(
            recording.warnings.first?.hasPrefix(
                "signal 65 (annotations): its prefiltering field (byte 14216) is \"HP:0Hz LP:0Hz N:0Hz\", not blank")
                == true)
        let events = recording.markerEvents()
        #expect(events.map(\.payload) == ["T0"])
        #expect(events.first?.deviceTime == 1_250_093_700)
        #expect(events.first?.counter == 0)
        #expect(recording.markerDescriptor.contentType == .markers)
    }

    @Test(
        "sample values agree with an independent decode of the 16-bit records",
        arguments: [
            (0, 0), (0, 63), (159, 10), (160, 10), (4321, 31), (9759, 0), (9759, 63), (5000, 62),
        ])
    func samplesMatchIndependentParse(frame: Int, channel: Int) throws {
        let recording = try EDFFileReader().read(path: EDFTestFiles.physioNetPath)
        let header = EDFTestFiles.SimpleHeader(Self.bytes)
        #expect(header.recordBytes == 20640)
        let expected = header.value(Self.bytes, signal: channel, sample: frame)
        let got = recording.value(frame: frame, channel: channel)
        #expect(abs(got - expected) <= 1e-9 * max(1, abs(expected)), "frame \(frame) channel \(channel)")
    }

    @Test("concurrent reads are serialised around EDFlib's unlocked file table and agree")
    func concurrentReads() async throws {
        let results = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<6 {
                group.addTask { try EDFFileReader().read(path: EDFTestFiles.physioNetPath).channel(at: 7) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 6)
        #expect(results.allSatisfy { $0 == results[0] && $0.count == 9760 })
    }

    @Test("a few known samples, by value")
    func knownValues() throws {
        let recording = try EDFFileReader().read(path: EDFTestFiles.physioNetPath)
        let header = EDFTestFiles.SimpleHeader(Self.bytes)
        // Digital −16 at Fc5. frame 0 is −16 µV (the scale is exactly 1 µV per step: ±8092 both ways).
        let first = Int16(bitPattern: UInt16(Self.bytes[16896]) | UInt16(Self.bytes[16897]) << 8)
        #expect(recording.value(frame: 0, channel: 0) == Double(first))
        #expect(header.value(Self.bytes, signal: 0, sample: 0) == Double(first))
    }

    @Test("format sniffing sends EDF to EDFlib, by path and by bytes")
    func sniffing() throws {
        #expect(try RecordingFormat.detect(bytes: Self.bytes) == .edf)
        let byPath = try RecordingReader.read(path: EDFTestFiles.physioNetPath)
        #expect(byPath.frameCount == 9760 && byPath.channelCount == 64)
        let byBytes = try RecordingReader.read(bytes: Self.bytes, sourceName: "S001R01.edf")
        #expect(byBytes.values == byPath.values)
        #expect(byBytes.markers == byPath.markers)
        #expect(byBytes.descriptor.sourceID == "file:S001R01.edf")
    }

    @Test("a BDF file: 24-bit samples, physical scaling, start time, the most common rate is the main stream")
    func bdfMixedRates() throws {
        let signals = [
            EDFTestFiles.Signal(
                label: "A1", samplesPerRecord: 256, digital: -8_388_608...8_388_607, physical: -262144...262143),
            EDFTestFiles.Signal(
                label: "Slow", samplesPerRecord: 128, digital: -1000...1000, physical: -10...10, unit: "mV"),
            EDFTestFiles.Signal(
                label: "A2", samplesPerRecord: 256, digital: -8_388_608...8_388_607, physical: -262144...262143),
        ]
        let bytes = EDFTestFiles.make(bdf: true, signals: signals, records: 3) { signal, record, sample in
            (signal == 1 ? 3 : 1_000_003) * (record * 256 + sample) % 8_000_000 - 4_000_000
        }
        let path = try EDFTestFiles.temporaryFile(bytes, suffix: ".bdf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try RecordingFormat.detect(bytes: bytes) == .bdf)
        let recording = try RecordingReader.read(path: path)
        #expect(recording.channelLabels == ["A1", "A2"])
        #expect(recording.sampleRate == 256)
        #expect(recording.frameCount == 768)
        #expect(recording.descriptor.format == .int24)
        #expect(recording.descriptor.metadata["format"] == "BDF")
        // The 128 Hz signal is a stream of its own (its samples lie beyond its digital range: read as written).
        #expect(recording.companions.map(\.channelLabels) == [["Slow"]])
        #expect(recording.companions.first?.sampleRate == 128 && recording.companions.first?.frameCount == 384)
        #expect(
            recording.warnings == [
                "signal 2 (\"Slow\"): 384 samples outside the declared digital range -1000…1000, read as written (not "
                    + "clipped) and scaled beyond the physical range"
            ])
        // 2020-01-01 10:20:30 UTC.
        #expect(recording.startTime == 1_577_874_030)
        // physical = (digital − dmin) × (pmax − pmin) ÷ (dmax − dmin) + pmin, ±262144 µV over the 24-bit range.
        for frame in [0, 1, 300, 767] {
            let digital = Double(1_000_003 * frame % 8_000_000 - 4_000_000)
            let expected = (digital + 8_388_608) * 524_287 / 16_777_215 - 262_144
            #expect(abs(recording.value(frame: frame, channel: 0) - expected) < 1e-6)
            #expect(abs(recording.value(frame: frame, channel: 1) - expected) < 1e-6)
        }
    }

    @Test("a truncated EDF names the records it has")
    func truncated() throws {
        // Cut in the middle of record 31 (0-based 30).
        let cut = Array(Self.bytes.prefix(16896 + 30 * 20640 + 1000))
        let path = try EDFTestFiles.temporaryFile(cut)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: RecordingError.edf(
                path: path,
                problem: .truncated(
                    claimedRecords: 61, completeRecords: 30, expectedBytes: 1_275_936, actualBytes: cut.count))
        ) {
            try EDFFileReader(keepsCompleteRecords: false).read(path: path)
        }
        // By default the 30 complete records are read and the cut is reported.
        let kept = try RecordingReader.read(path: path)
        #expect(kept.frameCount == 30 * 160)
        #expect(kept.descriptor.metadata["edf.records"] == "30")
        #expect(
            kept.warnings.contains(
                "file truncated: the header's record count is 61 but only 30 data records are complete; read those, "
                    + "dropped 1000 bytes after byte \(16896 + 30 * 20640)"))
        let whole = try EDFFileReader().read(path: EDFTestFiles.physioNetPath)
        #expect(kept.values == Array(whole.values.prefix(30 * 160 * 64)))
        #expect(kept.markers == whole.markers)
    }

    @Test("a record count of -1 (never closed) reads the complete records")
    func recordCountUnknown() throws {
        let bytes = EDFTestFiles.patch(Array(Self.bytes.prefix(16896 + 12 * 20640 + 5)), at: 236, width: 8, with: "-1")
        let path = try EDFTestFiles.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = try EDFFileReader().read(path: path)
        #expect(recording.frameCount == 12 * 160)
        #expect(recording.warnings.contains { $0.hasPrefix("file truncated: the header's record count is -1 (never") })
        #expect(throws: RecordingError.edf(path: path, problem: .recordCountUnknown)) {
            try EDFFileReader(keepsCompleteRecords: false).read(path: path)
        }
    }

    @Test("bytes after the last record are named, not left to EDFlib's generic refusal")
    func extraBytes() throws {
        let path = try EDFTestFiles.temporaryFile(Self.bytes + [1, 2, 3])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: RecordingError.edf(
                path: path,
                problem: .extraBytes(
                    records: 61, expectedBytes: 1_275_936, actualBytes: 1_275_939))
        ) {
            try EDFFileReader().read(path: path)
        }
    }

    @Test(
        "header lies give a typed error naming the field and its byte",
        arguments: [
            (236, 8, "99", "truncated"),
            (236, 8, "-1", "recordCountUnknown"),
            (236, 8, "abc", "number of data records@236"),
            (252, 4, "9999", "number of signals@252"),
            (184, 8, "100", "number of bytes in header@184"),
            (244, 8, "0", "duration of a data record@244"),
            (256 + 120 * 65, 8, "x1", "digital minimum@8056"),
            (256 + 128 * 65 + 8 * 3, 8, "-40000", "digital maximum@8600"),
            (256 + 216 * 65 + 8 * 2, 8, "99999999", "number of samples in each data record@14312"),
            (256 + 104 * 65, 8, "8092", "physical maximum@7536"),
        ] as [(Int, Int, String, String)])
    func headerLies(offset: Int, width: Int, text: String, expected: String) throws {
        let bytes = EDFTestFiles.patch(Self.bytes, at: offset, width: width, with: text)
        let path = try EDFTestFiles.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try EDFFileReader(keepsCompleteRecords: false).read(path: path)
            Issue.record("a header with \"\(text)\" at byte \(offset) was accepted")
        } catch .edf(let where_, let problem) {
            #expect(where_ == path)
            switch problem {
            case .truncated(let claimed, _, _, _): #expect(expected == "truncated" && claimed == 99)
            case .recordCountUnknown: #expect(expected == "recordCountUnknown")
            case .headerField(let field, _, let byteOffset, _, _): #expect("\(field)@\(byteOffset)" == expected)
            default: Issue.record("unexpected \(problem)")
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("EDFlib's own refusals map onto typed cases")
    func libraryErrors() throws {
        // An EDF+ reserved field on a file whose patient field is not EDF+-shaped: EDFlib finds format errors.
        var bytes = EDFTestFiles.patch(Self.bytes, at: 8, width: 80, with: "no EDF+ subfields here")
        var path = try EDFTestFiles.temporaryFile(bytes)
        #expect(throws: RecordingError.edf(path: path, problem: .library(.fileContainsFormatErrors))) {
            try EDFFileReader().read(path: path)
        }
        try? FileManager.default.removeItem(atPath: path)
        // EDF+D: discontinuous.
        bytes = EDFTestFiles.patch(Self.bytes, at: 192, width: 44, with: "EDF+D")
        path = try EDFTestFiles.temporaryFile(bytes)
        #expect(throws: RecordingError.edf(path: path, problem: .library(.fileIsDiscontinuous))) {
            try EDFFileReader().read(path: path)
        }
        try? FileManager.default.removeItem(atPath: path)
        #expect(EDFLibraryError(code: -2) == .noSuchFileOrDirectory)
        #expect(EDFLibraryError(code: -99) == .unknown(code: -99))
        #expect(throws: RecordingError.cannotOpen(path: "/nonexistent/x.edf", errno: ENOENT)) {
            try EDFFileReader().read(path: "/nonexistent/x.edf")
        }
    }

    @Test("out-of-range digital samples are kept and counted")
    func outOfRange() throws {
        let signals = [
            EDFTestFiles.Signal(label: "C3", samplesPerRecord: 100, digital: -100...100, physical: -100...100)
        ]
        let bytes = EDFTestFiles.make(signals: signals, records: 2) { _, record, sample in
            record == 1 && sample < 7 ? 30000 : sample
        }
        let path = try EDFTestFiles.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = try EDFFileReader().read(path: path)
        #expect(recording.frameCount == 200)
        #expect(recording.value(frame: 100, channel: 0) == 30000)  // as written: EDFlib would clip it to 100
        #expect(recording.value(frame: 150, channel: 0) == 50)
        #expect(
            recording.warnings == [
                "signal 1 (\"C3\"): 7 samples outside the declared digital range -100…100, read as written (not "
                    + "clipped) and scaled beyond the physical range",
            ])
    }
}
