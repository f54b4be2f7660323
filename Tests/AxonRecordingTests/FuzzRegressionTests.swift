import Foundation
import Testing

@testable import AxonRecording

/// Inputs the coverage-guided fuzzer (Fuzz/, docs/fuzzing.md) found breaking a reader's promise, each kept in
/// `Fuzz/Corpus/<target>/regression-*` (so every fuzz run replays it too) and checked here in the normal suite.
@Suite("Reader regressions found by fuzzing")
struct FuzzRegressionTests {
    static func input(_ target: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestData.root.appendingPathComponent("Fuzz/Corpus/\(target)/\(name)")))
    }

    /// Every stream of a file read whole: one time per sample and one value (or string) per channel for each.
    static func expectWholeSamples(_ file: XDFFile) {
        for stream in file.streams {
            let count = stream.format == .string ? stream.strings.count : stream.values.count
            #expect(count == stream.sampleCount * stream.channelCount, "stream \(stream.id)")
        }
    }

    /// The fuzzer's input: an Axon XDF file of 5 float32 channels whose Samples chunk breaks off inside a sample.
    /// The reader appended the time and the values read so far, leaving 4 values for the last time, so the
    /// stream no longer held whole frames (and every later chunk's channels would be shifted).
    @Test("an XDF Samples chunk that breaks off inside a sample is skipped whole (fuzz inputs xdf, lslxml)")
    func xdfPartialSample() throws {
        let file = try XDFReader.read(bytes: try Self.input("xdf", "regression-partial-sample"))
        Self.expectWholeSamples(file)
        #expect(file.streams.count == 1)
        // The lslxml input is an LSL stream header's XML; the fuzz target wraps it in one XDF file.
        let xml = try Self.input("lslxml", "regression-partial-sample")
        Self.expectWholeSamples(try XDFReader.read(bytes: Self.streamHeaderFile(xml: xml)))
    }

    /// The same damage made by hand: 2 channels of int16, a chunk of 2 samples whose second sample has one value.
    @Test("a hand-made cut sample: the chunk's whole samples are dropped with it, later chunks read")
    func xdfHandMadeCut() throws {
        let xml = Array(
            "<?xml version=\"1.0\"?><info><name>cut</name><channel_count>2</channel_count><nominal_srate>10</nominal_srate><channel_format>int16</channel_format></info>"
                .utf8)
        let damaged: [UInt8] = [1, 2, 0, 1, 0, 2, 0, 0, 3, 0]  // 2 samples: (1, 2) then a sample with only 3
        let whole: [UInt8] = [1, 1, 0, 7, 0, 8, 0]  // 1 sample: (7, 8)
        var bytes = Self.streamHeaderFile(xml: xml, samples: damaged)
        bytes += Self.chunk(tag: 3, [1, 0, 0, 0] + whole)
        let file = try XDFReader.read(bytes: bytes)
        Self.expectWholeSamples(file)
        #expect(file.streams.first?.values == [7, 8])
        #expect(file.trailingBytes == 0)
    }

    /// The fuzzer's input `XDF: 01 04 06 00 00…`: a StreamFooter chunk of 4 bytes, too short for its 4-byte stream
    /// id; the reader read the id past the chunk's end and then sliced the content backwards, which traps.
    @Test("an XDF chunk too short for its stream id is skipped (fuzz input xdf)")
    func xdfChunkShorterThanItsStreamID() throws {
        let bytes = try Self.input("xdf", "regression-short-chunk")
        #expect(bytes == Array("XDF:".utf8) + [1, 4, 6, 0, 0, 0, 0, 0, 0, 0])
        let file = try XDFReader.read(bytes: bytes)
        #expect(file.streams.isEmpty)
        // The 4-byte chunk is whole and skipped; the 4 bytes after it do not make a chunk.
        #expect(file.trailingBytes == 4)
    }

    /// The fuzzer's input: a Muse XDF file whose two StreamHeaders share the id 1, one of them without samples.
    /// The recording looked each stream's timeline up by id, so the EEG stream got the empty one's and indexing its
    /// first time trapped.
    @Test("two XDF streams with one id: each is read on its own timeline (fuzz input xdf)")
    func xdfDuplicateStreamID() throws {
        let file = try XDFReader.read(bytes: try Self.input("xdf", "regression-duplicate-stream-id"))
        let ids = file.streams.map(\.id)
        #expect(ids.count == 2 && Set(ids).count == 1)
        let recording = try file.recording(sourceName: "fuzz")
        #expect(recording.frameCount == 8 && recording.timestamps?.count == 8)
        #expect(recording.warnings.contains { $0.hasPrefix("two streams have the id 1") })
    }

    /// An input whose XDF chunk length has the top bit set: `Int(length)` would trap; the read ends there.
    @Test("an XDF chunk length beyond Int.max ends the read as trailing bytes instead of trapping")
    func xdfHugeLength() throws {
        let bytes = Array("XDF:".utf8) + [8] + Array(repeating: 0xFF, count: 8) + [2, 0, 1, 0, 0, 0]
        let file = try XDFReader.read(bytes: bytes)
        #expect(file.streams.isEmpty)
        #expect(file.trailingBytes == bytes.count - 4)
    }

    /// The fuzzer's input: an Axon CSV file whose descriptor says the counter wraps at 256, with a row whose
    /// counter is 176 930. The reader kept it, so the recording broke its own ``Recording/counterModulus`` (a
    /// replay's gap count from such a counter is meaningless).
    @Test("an Axon CSV counter at or past the file's counter modulus is a malformed row (fuzz input axoncsv)")
    func axonCSVCounterBeyondModulus() throws {
        let bytes = try Self.input("axoncsv", "regression-counter-modulus")
        #expect(throws: RecordingError.malformedRow(line: 5, reason: "field 4 (\"counter\") is 176930, not below the counter modulus 256")) {
            try AxonCSVReader().read(bytes: bytes)
        }
    }

    /// The same rule for the OpenBCI GUI's `Sample Index` (0…255): the fuzzer's input (the openbci target found
    /// it too), and the real file's first rows with one index raised to 256.
    @Test("an OpenBCI Sample Index above 255 is a malformed row (fuzz input openbci)")
    func openBCISampleIndexBeyond255() throws {
        let found = try Self.input("openbci", "regression-sample-index")
        do {
            let recording = try OpenBCITextReader().read(bytes: found)
            Issue.record("read \(recording.frameCount) frames, counters up to \(recording.counters?.max() ?? 0)")
        } catch .malformedRow(_, let reason) {
            #expect(reason.contains("not below the counter modulus 256"), "\(reason)")
        } catch {
            Issue.record("expected a malformed row, got \(error)")
        }
        var lines = try TestData.openBCIBytes.get().prefix(4000).split(separator: 0x0A, omittingEmptySubsequences: false)
            .map(Array.init)
        let first = try #require(lines.firstIndex { $0.first.map { (0x30...0x39).contains($0) } ?? false })
        lines[first + 1] = Array("256".utf8) + lines[first + 1].drop { $0 != UInt8(ascii: ",") }
        let text = String(decoding: lines.prefix(first + 3).joined(separator: [0x0A]) + [0x0A], as: UTF8.self)
        #expect(throws: RecordingError.self) { try OpenBCITextReader().read(bytes: Array(text.utf8)) }
        do {
            _ = try OpenBCITextReader().read(bytes: Array(text.utf8))
        } catch .malformedRow(let line, let reason) {
            #expect(line == first + 2)
            #expect(reason.contains("256, not below the counter modulus 256"))
        } catch {
            Issue.record("expected a malformed row, got \(error)")
        }
    }

    static func chunk(tag: UInt16, _ content: [UInt8]) -> [UInt8] {
        let length = UInt32(content.count + 2)
        return [4] + withUnsafeBytes(of: length.littleEndian, Array.init) + [UInt8(tag & 0xFF), UInt8(tag >> 8)] + content
    }

    /// What the lslxml fuzz target reads: a file header, a stream header with `xml`, one Samples chunk.
    static func streamHeaderFile(xml: [UInt8], samples: [UInt8]? = nil) -> [UInt8] {
        let id: [UInt8] = [1, 0, 0, 0]
        let sample = samples ?? [1, 1, 0] + withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian, Array.init)
        return Array("XDF:".utf8) + chunk(tag: 1, Array("<?xml version=\"1.0\"?><info><version>1.0</version></info>".utf8))
            + chunk(tag: 2, id + xml) + chunk(tag: 3, id + sample)
    }
}
