import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// Mutation fuzzing of every reader: valid files, damaged at random, must give a `Recording` or a typed
/// `RecordingError` — never a crash (a trap ends the test process), never a hang (each read's time is bounded).
@Suite("Reader fuzzing (bounded, seeded)")
struct ReaderFuzzTests {
    static let iterations = 300

    enum Reader: String, CaseIterable, CustomTestStringConvertible {
        case openBCI, muse, axonCSV, edf, openBCILegacy, brainFlow, mindMonitor, fif
        var testDescription: String { rawValue }
    }

    /// A small valid file for each reader.
    static func seedFile(_ reader: Reader) throws -> [UInt8] {
        func firstLines(_ bytes: [UInt8], _ count: Int) -> [UInt8] { Array(bytes[..<bytes.offset(ofLine: count + 1)]) }
        switch reader {
        case .openBCI:
            return firstLines(try TestData.openBCIBytes.get(), 60)
        case .muse:
            return firstLines(Array(try Data(contentsOf: URL(fileURLWithPath: TestData.musePath))), 60)
        case .axonCSV:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString).csv")
                .path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try AxonCSVWriter.write(try TestData.openBCI.get().frames(0..<40), to: path)
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        case .openBCILegacy:
            return firstLines(try RecordingFile.readAll(path: OlderOpenBCIFormatTests.legacyPath), 60)
        case .brainFlow:
            return firstLines(try RecordingFile.readAll(path: OlderOpenBCIFormatTests.brainFlowPath), 40)
        case .mindMonitor:
            return firstLines(try RecordingFile.readAll(path: MindMonitorCSVReaderTests.rawPath), 60)
        case .fif:
            return FIFReaderTests.smallFile()
        case .edf:
            // The PhysioNet header and its first two data records, with the record count set to 2.
            let whole = EDFFileReaderTests.bytes
            return EDFTestFiles.patch(Array(whole.prefix(16896 + 2 * 20640)), at: 236, width: 8, with: "2")
        }
    }

    /// Reads with the reader under test.
    static func read(_ reader: Reader, path: String) throws(RecordingError) -> Recording {
        switch reader {
        case .openBCI: return try OpenBCITextReader().read(path: path)
        case .muse: return try MuseCSVReader().read(path: path)
        case .axonCSV: return try AxonCSVReader().read(path: path)
        case .edf: return try EDFFileReader().read(path: path)
        case .openBCILegacy: return try OpenBCILegacyTextReader().read(path: path)
        case .brainFlow: return try BrainFlowCSVReader().read(path: path)
        case .mindMonitor: return try MindMonitorCSVReader().read(path: path).recording
        case .fif: return try FIFReader().read(path: path)
        }
    }

    /// Lies for EDF header number fields.
    static let lies = [
        "0", "-1", "1", "2", "3", "99999999", "-9999999", "abc", "1e308", "", "640", "641", "65", "+2",
        "32767", "-32768", "8388607", "0.0001", "nan", "160", "161",
    ]

    /// One random damage to `bytes`.
    static func mutate(_ bytes: inout [UInt8], reader: Reader, random: inout SplitMix64) {
        guard !bytes.isEmpty else { bytes = [UInt8(truncatingIfNeeded: random.next())]; return }
        let position = Int(random.next() % UInt64(bytes.count))
        switch random.next() % (reader == .edf ? 8 : 7) {
        case 0:  // flip bits in a few bytes
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let at = Int(random.next() % UInt64(bytes.count))
                bytes[at] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
        case 1:  // truncate
            bytes.removeSubrange(position...)
        case 2:  // duplicate a range
            let length = min(bytes.count - position, 1 + Int(random.next() % 200))
            bytes.insert(contentsOf: bytes[position..<(position + length)], at: position)
        case 3:  // delete a range
            let length = min(bytes.count - position, 1 + Int(random.next() % 200))
            bytes.removeSubrange(position..<(position + length))
        case 4:  // insert garbage
            let garbage = (0..<(1 + Int(random.next() % 16))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes.insert(contentsOf: garbage, at: position)
        case 5:  // a text token in place of some bytes: separators, signs, huge numbers
            let tokens = [
                ",", ",,", "\n", "\r\n", "-", "nan", "1e999", "99999999999999999999", " ", "%", "#", "\"", "\0",
            ]
            let token = Array(tokens[Int(random.next() % UInt64(tokens.count))].utf8)
            bytes.replaceSubrange(position..<min(bytes.count, position + token.count), with: token)
        case 6:  // cut in the middle of the last line or record
            bytes.removeLast(min(bytes.count, 1 + Int(random.next() % 40)))
        default:  // EDF: a header number field that lies
            let ns = 65
            let fields: [(Int, Int)] =
                [(184, 8), (236, 8), (244, 8), (252, 4)]
                + (0..<4).flatMap { _ -> [(Int, Int)] in
                    let signal = Int(random.next() % UInt64(ns))
                    return [
                        (256 + 104 * ns + 8 * signal, 8), (256 + 112 * ns + 8 * signal, 8),
                        (256 + 120 * ns + 8 * signal, 8), (256 + 128 * ns + 8 * signal, 8),
                        (256 + 216 * ns + 8 * signal, 8),
                    ]
                }
            let (offset, width) = fields[Int(random.next() % UInt64(fields.count))]
            guard offset + width <= bytes.count else { return }
            let lie = lies[Int(random.next() % UInt64(lies.count))]
            bytes = EDFTestFiles.patch(bytes, at: offset, width: width, with: lie)
        }
    }

    @Test(
        "300 damaged copies per reader: a Recording or a typed RecordingError, each read bounded",
        arguments: Reader.allCases)
    func fuzz(reader: Reader) throws {
        let original = try Self.seedFile(reader)
        #expect(throws: Never.self) { try Self.read(reader, path: EDFTestFiles.temporaryFile(original, suffix: ".x")) }
        var random = SplitMix64(seed: 0xA505_0000 + UInt64(Reader.allCases.firstIndex(of: reader)!))
        var outcomes: [String: Int] = [:]
        var slowest = 0.0
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for _ in 0..<Self.iterations {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 3)) { Self.mutate(&bytes, reader: reader, random: &random) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let started = Date()
            do {
                let recording = try Self.read(reader, path: path)
                #expect(recording.values.count == recording.frameCount * recording.channelCount)
                #expect(recording.timestamps.map { $0.allSatisfy(\.isFinite) } ?? true)
                let kind =
                    recording.truncation != nil
                    ? "recording (truncated)"
                    : recording.warnings.isEmpty ? "recording" : "recording (with warnings)"
                outcomes[kind, default: 0] += 1
            } catch {
                #expect(!error.description.isEmpty)
                outcomes[Self.caseName(error), default: 0] += 1
            }
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        let report = outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("fuzz \(reader.rawValue): \(Self.iterations) reads, slowest \(Int(slowest * 1000)) ms: \(report)")
        #expect(outcomes.values.reduce(0, +) == Self.iterations)
        #expect(outcomes.keys.contains { $0.hasPrefix("recording") })
        #expect(outcomes.keys.contains { !$0.hasPrefix("recording") })
        #expect(slowest < 5, "one read took \(slowest) s")
    }

    static func caseName(_ error: RecordingError) -> String {
        switch error {
        case .cannotOpen: return "cannotOpen"
        case .readFailed: return "readFailed"
        case .unsupportedFormat: return "unsupportedFormat"
        case .missingHeader: return "missingHeader"
        case .malformedHeader: return "malformedHeader"
        case .undecodableJSON: return "undecodableJSON"
        case .malformedRow: return "malformedRow"
        case .unknownChannel: return "unknownChannel"
        case .ambiguousChannel: return "ambiguousChannel"
        case .invalidSegment: return "invalidSegment"
        case .edf(_, let problem):
            switch problem {
            case .headerTruncated: return "edf.headerTruncated"
            case .headerField: return "edf.headerField"
            case .recordCountUnknown: return "edf.recordCountUnknown"
            case .truncated: return "edf.truncated"
            case .noSignals: return "edf.noSignals"
            case .extraBytes: return "edf.extraBytes"
            case .library: return "edf.library"
            case .readFailed: return "edf.readFailed"
            case .annotationFailed: return "edf.annotationFailed"
            }
        case .brainVision: return "brainVision"
        case .needsPath: return "needsPath"
        case .fif: return "fif"
        }
    }
}
