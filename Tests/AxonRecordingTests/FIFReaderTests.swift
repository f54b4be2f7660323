import AxonStreams
import Foundation
import StreamTestSupport
import Testing

@testable import AxonRecording

/// FIF raw files as MNE-Python saves them (`RawArray(...).save`), read by Axon and compared with MNE's own reading
/// of the same file; hand-made files for what MNE does not write (skips, `next` pointers) and damage. The MNE cases
/// are skipped without `.venv-peers`.
@Suite("FIF reader")
struct FIFReaderTests {
    /// What a saved file holds: its path and MNE's reading of it (channel-major, volts).
    struct Saved {
        var path: String
        var mne: [[Double]]
    }

    /// Saves `source` (µV channels as volts) with MNE as FIF in `format`, with `labels` and MNE channel `types`;
    /// integer formats get a calibration of `cal` volts per step. Returns nil without the peers.
    static func save(
        _ source: Recording, labels: [String], types: [String], format: String, cal: Double? = nil,
        annotations: [(Double, Double, String)] = [], in folder: URL
    ) throws -> Saved? {
        guard EDFPeers.available else { return nil }
        let values = folder.appendingPathComponent("values.f64").path
        var flat: [Double] = []
        for channel in 0..<source.channelCount {
            for frame in 0..<source.frameCount { flat.append(source.value(frame: frame, channel: channel) * 1e-6) }
        }
        try flat.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: values)) }
        var meta: [String: Any] = ["labels": labels, "rate": source.sampleRate, "types": types]
        if let start = source.startTime { meta["meas_date"] = start }
        if let cal { meta["cal"] = cal }
        meta["annotations"] = annotations.map { [$0.0, $0.1, $0.2] as [Any] }
        let metaPath = folder.appendingPathComponent("meta.json").path
        try JSONSerialization.data(withJSONObject: meta).write(to: URL(fileURLWithPath: metaPath))
        let path = folder.appendingPathComponent("\(format)_raw.fif").path
        try BrainVisionTests.mneWrite(["fif", values, metaPath, path, "--fmt", format])
        let read = try Data(contentsOf: URL(fileURLWithPath: path + ".read.f64"))
        let all = read.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        let frames = all.count / source.channelCount
        return Saved(path: path, mne: (0..<source.channelCount).map { Array(all[($0 * frames)..<(($0 + 1) * frames)]) })
    }

    /// The largest difference between Axon's reading and MNE's (in Axon's units: µV for volts), relative to the
    /// larger magnitude, and the largest absolute difference in µV.
    static func compare(_ axon: Recording, _ mne: [[Double]]) -> (relative: Double, absolute: Double) {
        var relative = 0.0
        var absolute = 0.0
        for channel in 0..<axon.channelCount {
            let scale = axon.descriptor.channels[channel].unit == "µV" ? 1e6 : 1
            for frame in 0..<axon.frameCount {
                let theirs = mne[channel][frame] * scale
                let ours = axon.value(frame: frame, channel: channel)
                let difference = abs(ours - theirs)
                absolute = max(absolute, difference)
                if difference > 0 { relative = max(relative, difference / max(abs(ours), abs(theirs))) }
            }
        }
        return (relative, absolute)
    }

    @Test(
        "MNE's FIF of the PhysioNet recording, as float32, float64, int32 and int16: Axon reads what MNE reads",
        arguments: ["single", "double", "int", "short"])
    func physioNetFromMNE(format: String) throws {
        let source = try RecordingReader.read(path: EDFTestFiles.physioNetPath).selecting(
            channels: ["Fc5.", "C3..", "O1..", "Oz..", "O2.."])
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A name longer than FIF's 15 characters, a stimulus and a misc channel; annotations with a colon.
        let labels = ["Fc5.", "C3-a-very-long-channel-name", "O1..", "STI 014", "misc:O2"]
        let types = ["eeg", "eeg", "eeg", "stim", "misc"]
        let annotations = [(0.0, 0.0, "T0"), (1.5, 0.0, "eyes:closed"), (60.0, 0.0, "T1")]
        // Whole µV: an integer file steps by 1 µV.
        guard
            let saved = try Self.save(
                source, labels: labels, types: types, format: format,
                cal: format == "short" || format == "int" ? 1e-6 : nil,
                annotations: annotations, in: folder)
        else { return }
        let recording = try RecordingReader.read(path: saved.path)
        #expect(
            try RecordingFormat.detect(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: saved.path)))) == .fif)
        #expect(recording.channelLabels == labels)
        #expect(recording.sampleRate == 160)
        #expect(recording.frameCount == source.frameCount)
        // MNE gives its stimulus channel volts (Axon: trigger codes, no unit) and its misc channel no unit.
        #expect(recording.descriptor.channels.map(\.unit) == ["µV", "µV", "µV", "", ""])
        #expect(recording.descriptor.metadata["fif.kind.STI 014"] == "stim")
        let expectedFormat: SampleFormat = ["single": .float32, "double": .float64, "int": .int32, "short": .int16][
            format]!
        #expect(recording.descriptor.format == expectedFormat)
        let (relative, absolute) = Self.compare(recording, saved.mne)
        #expect(relative <= Double(Float.ulpOfOne), "Axon differs from MNE by \(relative) relative, \(absolute) µV")
        print("FIF \(format): Axon vs MNE at most \(absolute) µV (relative \(relative))")
        // The EEG channels are the source's whole µV (the stim channel's volts round to 0 in int16).
        for frame in [0, 1, 4321, source.frameCount - 1] {
            #expect(abs(recording.value(frame: frame, channel: 0) - source.value(frame: frame, channel: 0)) < 1e-3)
        }
        #expect(recording.markers.map(\.text) == ["T0", "eyes:closed", "T1"])
        #expect(recording.markers.map(\.frame) == [0, 240, 9600])
        let start = try #require(source.startTime)
        #expect(abs((recording.startTime ?? 0) - start) < 1e-6)
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")
    }

    @Test("damage: a FIF cut anywhere is a typed error or the buffers before the cut, never a trap")
    func truncated() throws {
        let source = try RecordingReader.read(path: EDFTestFiles.physioNetPath).selecting(channels: ["Fc5.", "O1.."])
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard
            let saved = try Self.save(source, labels: ["A", "B"], types: ["eeg", "eeg"], format: "single", in: folder)
        else { return }
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: saved.path)))
        // Cut in the middle of the data: the buffers before the cut, with a warning; refused when asked.
        let cut = Array(whole[0..<(whole.count * 2 / 3)])
        let kept = try FIFReader().read(bytes: cut, sourceName: "cut.fif")
        #expect(kept.frameCount > 0 && kept.frameCount < source.frameCount)
        #expect(kept.frameCount % 1 == 0 && kept.warnings.contains { $0.hasPrefix("file truncated") })
        #expect(zip(kept.values, source.values).allSatisfy { abs($0 - $1) < 1e-3 })
        do {
            _ = try FIFReader(keepsCompleteBuffers: false).read(bytes: cut, sourceName: "cut.fif")
            Issue.record("a cut file was read without keepsCompleteBuffers")
        } catch {
            guard case .fif(path: "cut.fif", problem: .truncated(_, _, let size)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(size == cut.count)
        }
        var outcomes: [String: Int] = [:]
        for length in stride(from: 0, to: whole.count, by: max(1, whole.count / 300)) {
            do {
                _ = try FIFReader().read(bytes: Array(whole[0..<length]), sourceName: "cut.fif")
                outcomes["recording", default: 0] += 1
            } catch {
                outcomes[ReaderFuzzTests.caseName(error), default: 0] += 1
            }
        }
        #expect(outcomes["recording", default: 0] > 0 && outcomes["fif", default: 0] > 0, "\(outcomes)")
    }

    // MARK: - Hand-made files

    /// A FIF file built tag by tag (big-endian).
    struct Builder {
        var bytes: [UInt8] = []

        mutating func int32(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
        mutating func float32(_ value: Float) { withUnsafeBytes(of: value.bitPattern.bigEndian) { bytes += $0 } }

        /// A tag with `data`; `next` 0 (the next tag follows).
        mutating func tag(_ kind: Int32, _ type: Int32, _ data: [UInt8], next: Int32 = 0) {
            int32(kind)
            int32(type)
            int32(Int32(data.count))
            int32(next)
            bytes += data
        }

        static func be(_ values: [Int32]) -> [UInt8] {
            values.flatMap { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        }

        static func be(_ values: [Float]) -> [UInt8] {
            values.flatMap { value in withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) } }
        }

        /// A channel info struct: kind, range 1, cal `cal`, unit `unit`, name.
        static func channel(_ number: Int32, kind: Int32, cal: Float, unit: Int32, name: String) -> [UInt8] {
            var data =
                be([number, number, kind]) + be([Float(1), cal]) + be([Int32(1)]) + be([Float](repeating: 0, count: 12))
            data += be([unit, 0])
            data += Array(name.utf8.prefix(15)) + [UInt8](repeating: 0, count: 16 - min(15, name.utf8.count))
            return data
        }

        /// The file's start: file id and a directory pointer of -1.
        static func start() -> Builder {
            var builder = Builder()
            builder.tag(100, 31, [UInt8](repeating: 0, count: 20))
            builder.tag(101, 3, be([Int32(-1)]))
            return builder
        }

        /// A measurement info block for two channels at 100 Hz.
        mutating func measurementInfo(date: Int32? = 1_600_000_000) {
            tag(104, 3, Self.be([Int32(100)]))
            tag(104, 3, Self.be([Int32(101)]))
            tag(200, 3, Self.be([Int32(2)]))
            tag(201, 4, Self.be([Float(100)]))
            if let date { tag(204, 3, Self.be([date, 500_000])) }
            tag(203, 30, Self.channel(1, kind: 2, cal: 1e-6, unit: 107, name: "Cz"))
            tag(203, 30, Self.channel(2, kind: 3, cal: 1, unit: -1, name: "STI"))
            tag(105, 3, Self.be([Int32(101)]))
        }
    }

    /// A small valid FIF file: two channels at 100 Hz, three float32 buffers of 10 frames, one annotation.
    static func smallFile() -> [UInt8] {
        var file = Builder.start()
        file.measurementInfo()
        file.tag(104, 3, Builder.be([Int32(3810)]))
        file.tag(3568, 4, Builder.be([Float(0.05)]))
        file.tag(3569, 4, Builder.be([Float(0.05)]))
        file.tag(206, 10, Array("T0".utf8))
        file.tag(105, 3, Builder.be([Int32(3810)]))
        file.tag(104, 3, Builder.be([Int32(102)]))
        file.tag(208, 3, Builder.be([Int32(0)]))
        for buffer in 0..<3 {
            file.tag(300, 4, Builder.be((0..<20).map { Float(buffer * 20 + $0) }))
        }
        file.tag(105, 3, Builder.be([Int32(102)]))
        file.tag(108, 3, Builder.be([Int32(0)]), next: -1)
        return file.bytes
    }

    @Test("the small hand-made file: 30 frames, the annotation at frame 5")
    func smallFileReads() throws {
        let recording = try FIFReader().read(bytes: Self.smallFile(), sourceName: "small.fif")
        #expect(recording.frameCount == 30 && recording.channelCount == 2)
        #expect(recording.markers == [RecordingMarker(frame: 5, value: 0, text: "T0")])
        #expect(recording.value(frame: 29, channel: 1) == 59)
    }

    @Test("hand-made: int16 buffers with a skip between them, a first sample, and a next pointer over junk")
    func skipsAndPointers() throws {
        var file = Builder.start()
        file.measurementInfo()
        file.tag(104, 3, Builder.be([Int32(102)]))
        file.tag(208, 3, Builder.be([Int32(50)]))
        let first: [Int16] = [10, 1, -20, 0, 30, 5]  // 3 frames × 2 channels
        file.tag(300, 2, first.flatMap { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } })
        file.tag(301, 3, Builder.be([Int32(2)]))  // two buffers of the next buffer's size are missing
        // A tag whose next pointer jumps over 12 bytes of junk to the second buffer.
        let jump = Int32(file.bytes.count + 16 + 4 + 12)
        file.tag(108, 3, Builder.be([Int32(0)]), next: jump)
        file.bytes += [UInt8](repeating: 0xAB, count: 12)
        let second: [Int16] = [40, 7, 50, 8, 60, 9]
        file.tag(300, 2, second.flatMap { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } })
        file.tag(105, 3, Builder.be([Int32(102)]))
        file.tag(108, 3, Builder.be([Int32(0)]), next: -1)

        let recording = try FIFReader().read(bytes: file.bytes, sourceName: "hand.fif")
        #expect(recording.channelLabels == ["Cz", "STI"])
        #expect(recording.descriptor.channels.map(\.unit) == ["µV", ""])
        #expect(recording.frameCount == 6)
        // Cz: stored × 1 × 1e-6 V = stored µV (to float32's 1e-6 calibration).
        let cz = (0..<6).map { recording.value(frame: $0, channel: 0) }
        #expect(zip(cz, [10, -20, 30, 40, 50, 60]).allSatisfy { abs($0 - Double($1)) < 1e-6 })
        #expect((0..<6).map { recording.value(frame: $0, channel: 1) } == [1, 0, 5, 7, 8, 9])
        #expect(recording.gaps.map(\.beforeFrame) == [3])
        #expect(recording.gaps.map(\.gap.missingCount) == [6])
        let times = try #require(recording.timestamps)
        #expect(abs(times[0] - (1_600_000_000.5 + 0.5)) < 1e-9)
        #expect(abs(times[3] - (1_600_000_000.5 + 0.5 + 0.09)) < 1e-9)
        #expect(recording.descriptor.format == .int16)
    }

    @Test(
        "hand-made damage: typed errors",
        arguments: ["loop", "nchan", "buffer", "type", "noinfo", "notfif"])
    func damage(kind: String) throws {
        var file = Builder.start()
        var expected: FIFProblem
        switch kind {
        case "loop":
            file.measurementInfo()
            file.tag(108, 3, Builder.be([Int32(0)]), next: 20 + 16)  // back to the directory pointer
            file.tag(108, 3, Builder.be([Int32(0)]), next: Int32(file.bytes.count - 20))
            expected = .badTag(
                offset: file.bytes.count - 20, kind: 108,
                reason:
                    "next points to byte 36, outside the file (\(file.bytes.count) bytes) or back to a tag already read"
            )
            // The first jump goes to byte 36 (allowed once); walking on reaches this tag again and jumps to 36 again.
            expected = .badTag(
                offset: file.bytes.count - 40, kind: 108,
                reason:
                    "next points to byte 36, outside the file (\(file.bytes.count) bytes) or back to a tag already read"
            )
        case "nchan":
            file.tag(104, 3, Builder.be([Int32(101)]))
            file.tag(200, 3, Builder.be([Int32(3)]))
            file.tag(201, 4, Builder.be([Float(100)]))
            file.tag(203, 30, Builder.channel(1, kind: 2, cal: 1, unit: 107, name: "Cz"))
            file.tag(105, 3, Builder.be([Int32(101)]))
            file.tag(104, 3, Builder.be([Int32(102)]))
            file.tag(300, 4, Builder.be([Float](repeating: 0, count: 3)))
            file.tag(105, 3, Builder.be([Int32(102)]))
            expected = .channelCount(declared: 3, described: 1)
        case "buffer":
            file.measurementInfo()
            file.tag(104, 3, Builder.be([Int32(102)]))
            let offset = file.bytes.count
            file.tag(300, 4, Builder.be([Float(1), 2, 3]))
            expected = .bufferSize(offset: offset, size: 12, channels: 2, width: 4)
        case "type":
            file.measurementInfo()
            file.tag(104, 3, Builder.be([Int32(102)]))
            let offset = file.bytes.count
            file.tag(300, 20, Builder.be([Float(1), 2, 3, 4]))
            expected = .unsupportedBufferType(offset: offset, type: 20)
        case "noinfo":
            file.tag(104, 3, Builder.be([Int32(102)]))
            file.tag(105, 3, Builder.be([Int32(102)]))
            expected = .missing("measurement info (FIFFB_MEAS_INFO)")
        default:
            file.bytes[3] = 99
            expected = .notFIF
        }
        #expect(throws: RecordingError.fif(path: "bad.fif", problem: expected)) {
            try FIFReader().read(bytes: file.bytes, sourceName: "bad.fif")
        }
    }
}
