import AxonStreams
import Foundation
import StreamTestSupport
import Testing

@testable import AxonRecording

/// BrainVision (.vhdr/.eeg/.vmrk) as Axon writes and reads it, checked against MNE-Python's reader and exporter
/// (`read_raw_brainvision`, `export_raw(fmt="brainvision")` through pybv) on real recordings. The MNE checks are
/// skipped without `.venv-peers`.
@Suite("BrainVision")
struct BrainVisionTests {
    static let writeScript = TestData.root.appendingPathComponent("scripts/mne-write.py").path

    /// Runs scripts/mne-write.py with `arguments`; fails the test with MNE's output when it fails.
    static func mneWrite(_ arguments: [String]) throws {
        let (status, output) = try AxonExecutable.run(EDFPeers.python, [writeScript] + arguments)
        #expect(status == 0, "\(output)")
    }

    /// A recording of `channels` (label, unit) made here.
    static func recording(
        _ channels: [(String, String)], rate: Double, values: [Double], timestamps: [Double]? = nil,
        markers: [RecordingMarker] = [], gaps: [RecordingGap] = []
    ) -> Recording {
        Recording(
            descriptor: StreamDescriptor(
                name: "t", contentType: .eeg, channels: channels.map { ChannelInfo(label: $0.0, unit: $0.1) },
                nominalRate: rate, format: .float64, sourceID: "t"),
            values: values, timestamps: timestamps, markers: markers, gaps: gaps)
    }

    /// The largest absolute difference between two recordings' values (same shape).
    static func maximumDifference(_ a: Recording, _ b: Recording) -> Double {
        zip(a.values, b.values).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    /// Axon → BrainVision → Axon, then → MNE → MNE's export → Axon.
    /// `resolution`: the source's own resolution, to whose last digit the trip through MNE must keep each value.
    static func roundTrip(_ source: Recording, coding: BrainVisionBinaryFormat, resolution: Double) throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("axon.vhdr").path
        let result = try BrainVisionWriter.write(source, to: path)
        #expect(result.plan.binaryFormat == coding)
        #expect(!result.plan.isLossy, "\(result.plan.losses)")
        #expect(result.dataBytes == source.frameCount * source.channelCount * coding.width)
        let size = try FileManager.default.attributesOfItem(atPath: result.dataPath)[.size] as? Int
        #expect(size == result.dataBytes)

        // Axon reads its own file back to 10⁻⁶ of each channel's resolution.
        let back = try RecordingReader.read(path: path)
        #expect(back.channelLabels == source.channelLabels)
        #expect(back.descriptor.channels.map(\.unit) == source.descriptor.channels.map(\.unit))
        #expect(back.sampleRate == source.sampleRate)
        #expect(back.frameCount == source.frameCount)
        for (index, value) in source.values.enumerated() {
            let step = result.plan.resolutions[index % source.channelCount]
            guard abs(back.values[index] - value) <= 1e-6 * step else {
                Issue.record("value \(index): \(value) read back as \(back.values[index]) (resolution \(step))")
                break
            }
        }
        #expect(back.markers.map(\.frame) == source.markers.map(\.frame))
        #expect(back.markers.map(\.text) == source.markers.map(\.text))
        if let start = EDFConversion.start(of: source) {
            #expect(abs((back.startTime ?? 0) - start) < 1e-6)
        } else {
            #expect(back.startTime == nil)
        }

        guard EDFPeers.available else { return }
        // MNE reads channels, rate, values (volts, scaled back to the unit) and markers.
        let mne = try EDFPeers.mneRead(file: path)
        #expect(mne.labels == source.channelLabels)
        #expect(mne.rate == source.sampleRate)
        #expect(mne.samples == source.frameCount)
        var worstMNE = 0.0
        for channel in 0..<source.channelCount {
            for frame in 0..<source.frameCount {
                worstMNE = max(
                    worstMNE, abs(mne.values[channel][frame] - source.value(frame: frame, channel: channel)))
            }
        }
        // float32 exact, or half a resolution step: MNE multiplies the coded number by resolution × 10⁻⁶ in doubles.
        let tolerance = coding == .float32 ? 1e-9 : 1e-6 * resolution
        #expect(worstMNE <= tolerance, "MNE's values differ from the source by up to \(worstMNE)")
        print("BrainVision \(coding): MNE's reading differs by at most \(worstMNE) µV")
        let expectedAnnotations = source.markers.map { marker in
            EDFPeers.MNEAnnotation(
                sample: marker.frame,
                text: BrainVisionWriter.typeAndDescription(marker).0 + "/"
                    + BrainVisionWriter.typeAndDescription(marker).1)
        }
        #expect(mne.annotations == expectedAnnotations)
        if let start = EDFConversion.start(of: source) {
            #expect(abs((mne.measDate ?? 0) - start) < 1e-6)
        }

        // MNE exports it again (pybv, IEEE_FLOAT_32, µV, resolution 0.1) and Axon reads that equal to the source to
        // the last digit of the source's resolution.
        let exported = folder.appendingPathComponent("mne.vhdr").path
        try mneWrite(["export-brainvision", path, exported])
        let again = try RecordingReader.read(path: exported)
        #expect(again.channelLabels == source.channelLabels)
        #expect(again.sampleRate == source.sampleRate)
        #expect(again.frameCount == source.frameCount)
        let worst = maximumDifference(again, source)
        #expect(worst < resolution / 2, "MNE's export differs from the source by up to \(worst)")
        let digits = zip(again.values, source.values).filter { back, value in
            (back / resolution).rounded() != (value / resolution).rounded()
        }.count
        #expect(digits == 0, "\(digits) values differ in the last digit of the resolution \(resolution)")
        print("BrainVision via MNE's export: at most \(worst) µV from the source (resolution \(resolution))")
        #expect(again.markers.map(\.frame) == source.markers.map(\.frame))
        #expect(again.markers.map(\.text) == source.markers.map(\.text))
        if let start = EDFConversion.start(of: source) {
            #expect(abs((again.startTime ?? 0) - start) < 1e-6)
        }
    }

    @Test("PhysioNet EDF+ (whole µV): IEEE_FLOAT_32, exact through Axon and MNE, back from MNE's export")
    func physioNetThroughMNE() throws {
        let source = try RecordingReader.read(path: EDFTestFiles.physioNetPath)
        #expect(source.markers.map(\.text) == ["T0"])
        try Self.roundTrip(source, coding: .float32, resolution: 1)
    }

    @Test("OpenBCI GUI text (0.01 µV, offsets above 2²⁴ steps): INT_32 at 0.01 µV, back from MNE to the last digit")
    func openBCIThroughMNE() throws {
        let full = try TestData.openBCI.get()
        // Ten seconds are enough and keep MNE quick; its blinks and offsets are there.
        let source = try full.segment(from: 0, to: 10)
        let plan = BrainVisionPlan(source)
        #expect(plan.binaryFormat == .int32)
        #expect(plan.resolutions.allSatisfy { $0 == 0.01 })
        try Self.roundTrip(source, coding: .int32, resolution: 0.01)
    }

    @Test("markers, start and a gap survive Axon's round trip; MNE sees the gap's New Segment")
    func markersAndGaps() throws {
        let rate = 250.0
        let frames = 1000
        let start = 1_700_000_000.25
        var values: [Double] = []
        for frame in 0..<frames { values += [Double(frame % 50) - 25, Double(-frame % 7)] }
        let gap = RecordingGap(beforeFrame: 600, gap: GapRecord(cause: .linkLoss, missingCount: 125, start: 0, end: 0))
        let timestamps = (0..<frames).map { start + Double($0 + ($0 >= 600 ? 125 : 0)) / rate }
        let markers = [
            RecordingMarker(frame: 0, value: 1), RecordingMarker(frame: 10, value: 0, text: "eyes, closed"),
            RecordingMarker(frame: 700, value: 2, text: "Response/R  2"),
        ]
        let source = Self.recording(
            [("Fp1", "µV"), ("Trig,ger", "")], rate: rate, values: values, timestamps: timestamps, markers: markers,
            gaps: [gap])
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gap.vhdr").path
        let result = try BrainVisionWriter.write(source, to: path)
        #expect(result.gaps == 1 && result.markers == 3)
        let marker = try String(contentsOfFile: result.markerPath, encoding: .utf8)
        #expect(marker.contains("Mk1=New Segment,,1,1,0,20231114221320250000"))
        #expect(marker.contains("=Comment,eyes\\1 closed,11,1,0"))
        let back = try BrainVisionReader().read(path: path)
        #expect(back.channelLabels == ["Fp1", "Trig,ger"])
        #expect(back.descriptor.channels.map(\.unit) == ["µV", ""])
        #expect(back.gaps.map(\.beforeFrame) == [600])
        #expect(back.gaps.map(\.gap.missingCount) == [125])
        #expect(back.gaps.map(\.gap.cause) == [.linkLoss])
        #expect(back.markers.map(\.text) == ["Stimulus/S  1", "eyes, closed", "Response/R  2"])
        #expect(back.markers.map(\.value) == [1, 0, 2])
        let times = try #require(back.timestamps)
        #expect(zip(times, timestamps).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(back.values == source.values)

        guard EDFPeers.available else { return }
        let mne = try EDFPeers.mneRead(file: path)
        #expect(mne.labels == ["Fp1", "Trig,ger"])
        #expect(mne.annotations.contains(EDFPeers.MNEAnnotation(sample: 600, text: "New Segment/")))
        #expect(mne.annotations.contains(EDFPeers.MNEAnnotation(sample: 10, text: "Comment/eyes, closed")))
        #expect(mne.values[1].prefix(7) == [0, -1, -2, -3, -4, -5, -6])
    }

    @Test("the coding: whole µV as floats, decimals and EDF steps as integers, the rest lossy")
    func planChoice() throws {
        func recording(_ values: [Double]) -> Recording { Self.recording([("A", "µV")], rate: 100, values: values) }
        #expect(BrainVisionPlan(recording([1, -8092, 0.5])).binaryFormat == .float32)
        // float32 volts in µV (MNE's FIF) and float32 µV × 10 (MNE's BrainVision export) stay float32.
        let volts = BrainVisionPlan(recording([Float(1.234e-5), Float(-3.3e-6)].map { Double($0) * 1e6 }))
        #expect(volts.binaryFormat == .float32 && volts.resolutions == [1e6] && !volts.isLossy)
        let tenths = BrainVisionPlan(recording([Float(123_456.7), Float(-0.3)].map { Double($0) * 0.1 }))
        #expect(tenths.binaryFormat == .float32 && tenths.resolutions == [0.1] && !tenths.isLossy)
        // An EDF step on a grid through 0 (6400 µV over 65535 steps): 16 bits at that step.
        let step16 = 6400.0 / 65535
        let whole = BrainVisionPlan(recording([-32768, -1, 0, 5, 32767].map { step16 * Double($0) }))
        #expect(whole.binaryFormat == .int16 && !whole.isLossy, "\(whole)")
        #expect(abs(whole.resolutions[0] - step16) < 1e-15)
        let decimals = BrainVisionPlan(recording([61_379.36, -16_597.06, 0.01]))
        #expect(decimals.binaryFormat == .int32 && decimals.resolutions == [0.01] && !decimals.isLossy)
        // An EDF step with the digital range offset by half a step: 6400 µV over 65535 steps.
        let step = 6400.0 / 65535
        let edf = BrainVisionPlan(recording([-32768, -1, 0, 5, 32767].map { step * (Double($0) + 0.5) }))
        #expect(edf.binaryFormat == .int32 && !edf.isLossy, "\(edf)")  // 2n + 1 reaches 65535
        #expect(abs(edf.resolutions[0] - step / 2) < 1e-15)
        let lossy = BrainVisionPlan(recording([Double.pi * 1e5, .nan, 1.0 / 3]))
        #expect(lossy.isLossy && lossy.binaryFormat == .float32 && lossy.maximumErrors[0] > 0)
    }

    /// A small valid recording's three files, for the damage cases.
    static func writeSmall(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("small.vhdr").path
        let source = Self.recording([("C3", "µV"), ("C4", "µV")], rate: 500, values: (0..<200).map { Double($0 % 17) })
        try BrainVisionWriter.write(source, to: path)
        return path
    }

    /// Replaces `old` with `new` in the header at `path`.
    static func editHeader(_ path: String, _ old: String, _ new: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("damage: a data file cut inside a frame keeps its whole frames with a warning, or throws when asked")
    func truncatedData() throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeSmall(in: folder)
        let data = BrainVisionWriter.companionPaths(ofHeader: path).data
        let handle = try #require(FileHandle(forUpdatingAtPath: data))
        try handle.truncate(atOffset: 4 * 100 * 2 - 6)  // 99 frames of 8 bytes and 2 bytes of the 100th
        try handle.close()
        let kept = try BrainVisionReader().read(path: path)
        #expect(kept.frameCount == 99)
        #expect(kept.warnings.contains { $0.hasPrefix("data file truncated") })
        #expect(
            throws: RecordingError.brainVision(
                path: data, problem: .truncated(expectedBytes: 800, actualBytes: 794, completeFrames: 99))
        ) {
            try BrainVisionReader(keepsCompleteFrames: false).read(path: path)
        }
    }

    @Test(
        "damage: a broken header is a typed error naming the key",
        arguments: [
            ("DataFile=small.eeg\r\n", "", BrainVisionProblem.missingKey(section: "Common Infos", key: "DataFile")),
            (
                "BinaryFormat=IEEE_FLOAT_32", "BinaryFormat=UINT_16",
                .unsupported(key: "BinaryFormat", value: "UINT_16", supported: ["INT_16", "INT_32", "IEEE_FLOAT_32"])
            ),
            (
                "DataFormat=BINARY", "DataFormat=ASCII",
                .unsupported(key: "DataFormat", value: "ASCII", supported: ["BINARY"])
            ),
            (
                "NumberOfChannels=2", "NumberOfChannels=99999999999999999999",
                .badValue(
                    line: 11, key: "NumberOfChannels", value: "99999999999999999999",
                    reason: "not a whole number in 1…65536")
            ),
            ("NumberOfChannels=2", "NumberOfChannels=3", .missingKey(section: "Channel Infos", key: "Ch3")),
            (
                "SamplingInterval=2000", "SamplingInterval=-1",
                .badValue(
                    line: 14, key: "SamplingInterval", value: "-1", reason: "not a positive number of microseconds")
            ),
            (
                "Brain Vision Data Exchange Header File Version 1.0", "Brain Vision Something Else",
                .notAHeader(firstLine: "Brain Vision Something Else")
            ),
        ])
    func brokenHeader(old: String, new: String, problem: BrainVisionProblem) throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeSmall(in: folder)
        try Self.editHeader(path, old, new)
        #expect(throws: RecordingError.brainVision(path: path, problem: problem)) {
            try BrainVisionReader().read(path: path)
        }
    }

    @Test("a header alone: detected, but its files are named relative to its folder, so bytes alone are refused")
    func bytesAlone() throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeSmall(in: folder)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try RecordingFormat.detect(bytes: bytes) == .brainVision)
        #expect(throws: RecordingError.needsPath(format: .brainVision, sourceName: "small.vhdr")) {
            try RecordingReader.read(bytes: bytes, sourceName: "small.vhdr")
        }
        // A missing data file is the open error, naming the data file.
        let data = BrainVisionWriter.companionPaths(ofHeader: path).data
        try FileManager.default.removeItem(atPath: data)
        #expect(throws: RecordingError.cannotOpen(path: data, errno: ENOENT)) { try RecordingReader.read(path: path) }
    }

    @Test("damage: every cut of the header and the marker file is a typed error or a recording, never a trap")
    func everyCut() throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeSmall(in: folder)
        let markerPath = BrainVisionWriter.companionPaths(ofHeader: path).markers
        for file in [path, markerPath] {
            let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            var outcomes: [String: Int] = [:]
            for cut in stride(from: 0, to: whole.count, by: 7) {
                try Data(whole[0..<cut]).write(to: URL(fileURLWithPath: file))
                do {
                    let recording = try BrainVisionReader().read(path: path)
                    outcomes["recording", default: 0] += 1
                    #expect(recording.channelCount <= 2)
                } catch {
                    outcomes[ReaderFuzzTests.caseName(error), default: 0] += 1
                }
            }
            try Data(whole).write(to: URL(fileURLWithPath: file))
            #expect(outcomes["brainVision", default: 0] > 0, "\(file): \(outcomes)")
        }
    }

    @Test("existing files are refused without replace, any of the three; nothing is written")
    func refusesExisting() throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeSmall(in: folder)
        let (data, markers) = BrainVisionWriter.companionPaths(ofHeader: path)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.removeItem(atPath: data)
        let recording = try RecordingReader.read(path: EDFTestFiles.physioNetPath)
        let before = try Data(contentsOf: URL(fileURLWithPath: markers))
        #expect(throws: OutputFileError.exists(path: markers)) { try BrainVisionWriter.write(recording, to: path) }
        #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: data))
        #expect(try Data(contentsOf: URL(fileURLWithPath: markers)) == before)
        try BrainVisionWriter.write(recording, to: path, replace: true)
        #expect(try BrainVisionReader().read(path: path).channelCount == 64)
    }

    @Test("a hand-written Version 2.0 header: VECTORIZED INT_16, ANSI codepage, \\1 in a name, empty unit = µV")
    func handWrittenHeader() throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Windows-1252 bytes: µ is 0xB5; the header says ANSI.
        let header =
            "BrainVision Data Exchange Header File Version 2.0\r\n; a comment\r\n\r\n[Common Infos]\r\n"
            + "Codepage=ANSI\r\nDataFile=data.bin\r\nMarkerFile=marks.vmrk\r\nDataFormat=BINARY\r\n"
            + "DataOrientation=VECTORIZED\r\nNumberOfChannels=3\r\nDataPoints=4\r\nSamplingInterval=1953.125\r\n\r\n"
            + "[Binary Infos]\r\nBinaryFormat=INT_16\r\nUseBigEndianOrder=YES\r\n\r\n[Channel Infos]\r\n"
            + "Ch1=Fp1\\1Fp2,REF,0.5,\u{B5}V\r\nCh2=Cz,,2,\r\nCh3=Resp,,1,n/a\r\n\r\n[Comment]\r\nfree text = not a key\r\n"
        let latin1 = header.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        try Data(latin1).write(to: folder.appendingPathComponent("h.vhdr"))
        // Channel-major, big-endian: Fp1,Fp2 = 1 2 3 4; Cz = -1 -2 -3 -4; Resp = 100 200 300 400.
        let coded: [Int16] = [1, 2, 3, 4, -1, -2, -3, -4, 100, 200, 300, 400]
        try Data(coded.flatMap { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } })
            .write(to: folder.appendingPathComponent("data.bin"))
        let marks =
            "Brain Vision Data Exchange Marker File, Version 1.0\r\n[Marker Infos]\r\n"
            + "Mk1=New Segment,,1,1,0,00000000000000000000\r\nMk3=Response,R 12,4,1,0\r\nMk2=Stimulus,S  7,2,3,2\r\n"
            + "Mk4=Comment,late,9,1,0\r\n"
        try Data(marks.utf8).write(to: folder.appendingPathComponent("marks.vmrk"))

        let recording = try RecordingReader.read(path: folder.appendingPathComponent("h.vhdr").path)
        #expect(recording.channelLabels == ["Fp1,Fp2", "Cz", "Resp"])
        #expect(recording.descriptor.channels.map(\.unit) == ["µV", "µV", ""])
        #expect(recording.sampleRate == 512)
        #expect(recording.descriptor.format == .int16)
        #expect(recording.values == [0.5, -2, 100, 1, -4, 200, 1.5, -6, 300, 2, -8, 400])
        #expect(recording.descriptor.metadata["brainvision.codepage"] == "ANSI")
        #expect(recording.descriptor.metadata["brainvision.reference.Fp1,Fp2"] == "REF")
        #expect(recording.descriptor.metadata["brainvision.resolution.Cz"] == "2")
        #expect(recording.startTime == nil)
        // By Mk number: the stimulus (3 samples long, on channel 2) before the response; the late one is skipped.
        #expect(recording.markers.map(\.text) == ["Stimulus/S  7", "Response/R 12"])
        #expect(recording.markers.map(\.frame) == [1, 3])
        #expect(recording.markers.map(\.value) == [7, 12])
        #expect(recording.warnings.count == 3, "\(recording.warnings)")
    }

    @Test("a first New Segment after sample 1 dates its own sample: the start is that date less the samples before")
    func firstSegmentLater() throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeSmall(in: folder)
        let marks =
            "Brain Vision Data Exchange Marker File, Version 1.0\r\n[Marker Infos]\r\n"
            + "Mk1=New Segment,,3,1,0,20240102030405500000\r\nMk2=New Segment,,51,1,0,20240102030405700000\r\n"
        try Data(marks.utf8).write(to: URL(fileURLWithPath: BrainVisionWriter.companionPaths(ofHeader: path).markers))
        let recording = try BrainVisionReader().read(path: path)
        // 2024-01-02T03:04:05.5Z at frame 2 of 500 Hz; the second segment 0.2 s later at frame 50: 52 samples missing.
        let start = 1_704_164_645.5 - 2.0 / 500
        #expect(abs((recording.startTime ?? 0) - start) < 1e-9)
        #expect(recording.gaps.map(\.beforeFrame) == [50])
        #expect(recording.gaps.map(\.gap.missingCount) == [52])
        #expect(recording.markers.isEmpty)
    }
}
