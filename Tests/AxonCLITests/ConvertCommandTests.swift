import AxonRecording
import Foundation
import StreamTestSupport
import Testing

/// `axon convert` as a user runs it: nothing lost without saying so, starts and annotations kept, exit 1 for a lossy
/// conversion unless `--allow-lossy`.
@Suite("axon convert")
struct ConvertCommandTests {
    static let root = ReadmeTests.root
    static let openBCI = root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"
    ).path
    static let muse = root.appendingPathComponent("datasets/muse-p300/data_2017-02-04-15_45_13-first14s.csv").path
    static let physioNet = root.appendingPathComponent("datasets/physionet-eegmmidb/S001R01.edf").path
    static let python = root.appendingPathComponent(".venv-peers/bin/python").path

    /// A fresh folder, removed by the caller.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("axon-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func axon(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        return try AxonExecutable.run(axon, arguments)
    }

    /// Distinct values per channel as pyedflib reads them (nil without the peers).
    static func pyedflibDistinct(_ path: String) throws -> [Int]? {
        guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
        let script = """
            import sys, numpy as np, pyedflib
            f = pyedflib.EdfReader(sys.argv[1])
            print(",".join(str(len(np.unique(f.readSignal(i)))) for i in range(f.signals_in_file)))
            """
        let (status, output) = try AxonExecutable.run(python, ["-c", script, path])
        #expect(status == 0, "\(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
    }

    @Test("the issue's BDF → EDF: a recorded ±30 µV simulator keeps every distinct value (was 3)")
    func simulatorBDFToEDF() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bdf = folder.appendingPathComponent("s.bdf").path
        let edf = folder.appendingPathComponent("s.edf").path
        let recorded = try Self.axon(["record", "simulator", "--out", bdf, "--seconds", "5", "--fast"])
        #expect(recorded.status == 0, "\(recorded.output)")
        let converted = try Self.axon(["convert", bdf, edf])
        #expect(converted.status == 0, "\(converted.output)")
        #expect(converted.output.contains("step/RMS"))
        let source = try RecordingReader.read(path: bdf)
        let back = try RecordingReader.read(path: edf)
        for channel in 0..<source.channelCount {
            let before = Set((0..<source.frameCount).map { source.value(frame: $0, channel: channel) }).count
            let after = Set((0..<back.frameCount).map { back.value(frame: $0, channel: channel) }).count
            #expect(before >= 500 && after >= before, "channel \(channel): \(before) → \(after) distinct values")
        }
        if let distinct = try Self.pyedflibDistinct(edf) {
            #expect(distinct.count == 4 && distinct.allSatisfy { $0 >= 500 }, "pyedflib: \(distinct)")
        }
        // The recording's one "Recording starts" is kept, not doubled; the start is the recording's.
        #expect(back.markers.compactMap(\.text) == ["Recording starts"])
        #expect(back.startTime.map { abs($0 - source.startTime!) < 1e-6 } == true)
    }

    @Test("OpenBCI GUI sample → EDF: every sample unclipped; a range that clips is exit 1 unless --allow-lossy")
    func openBCIToEDF() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edf = folder.appendingPathComponent("o.edf").path
        let converted = try Self.axon(["convert", Self.openBCI, edf])
        #expect(converted.status == 0, "\(converted.output)")
        let source = try RecordingReader.read(path: Self.openBCI)
        let back = try RecordingReader.read(path: edf)
        #expect(back.warnings.isEmpty, "\(back.warnings)")  // no sample at the digital limits
        for (channel, info) in back.descriptor.channels.enumerated() {
            let range = try #require(info.range)
            let step = (range.upperBound - range.lowerBound) / 65534
            var worst = 0.0
            for frame in 0..<source.frameCount {
                let error = back.value(frame: frame, channel: channel) - source.value(frame: frame, channel: channel)
                worst = max(worst, abs(error))
            }
            #expect(worst <= step / 2 * (1 + 1e-6), "\(info.label): worst error \(worst), step \(step)")
        }

        // The old default range (±3276.7 µV) clips all eight channels: refused, nothing written.
        let clipped = folder.appendingPathComponent("clipped.edf").path
        let refused = try Self.axon(["convert", Self.openBCI, clipped, "--range=-3276.7,3276.7"])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("not written"))
        #expect(refused.output.components(separatedBy: "would be clipped").count - 1 == 8)
        #expect(!refused.output.contains("Usage:"))
        #expect(!FileManager.default.fileExists(atPath: clipped))
        let lossy = try Self.axon(["convert", Self.openBCI, clipped, "--range=-3276.7,3276.7", "--allow-lossy"])
        #expect(lossy.status == 0, "\(lossy.output)")
        #expect(lossy.output.contains("loss: EXG0: 22490 samples outside the range"))
        #expect(FileManager.default.fileExists(atPath: clipped))

        // --highpass removes the offsets: every channel then fits a few hundred µV around 0.
        let filtered = folder.appendingPathComponent("hp.edf").path
        let highPassed = try Self.axon(["convert", Self.openBCI, filtered, "--highpass", "1"])
        #expect(highPassed.status == 0, "\(highPassed.output)")
        let quiet = try RecordingReader.read(path: filtered)
        for info in quiet.descriptor.channels {
            let range = try #require(info.range)
            #expect(range.lowerBound > -40_000 && range.upperBound < 40_000, "\(info.label): \(range)")
        }
    }

    @Test("an Axon CSV recording: info says its start, and CSV → EDF writes that start in a file EDFlib reads")
    func csvStartSurvives() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("s.csv").path
        let edf = folder.appendingPathComponent("s.edf").path
        let before = Date().timeIntervalSince1970
        let recorded = try Self.axon(["record", "simulator", "--out", csv, "--seconds", "2", "--fast"])
        #expect(recorded.status == 0, "\(recorded.output)")
        let info = try Self.axon(["info", csv])
        #expect(info.status == 0)
        #expect(!info.output.contains("1970"), "\(info.output)")
        let start = try #require(try RecordingReader.read(path: csv).startTime)
        #expect(abs(start - before) < 60)
        let converted = try Self.axon(["convert", csv, edf])
        #expect(converted.status == 0, "\(converted.output)")
        let back = try EDFFileReader().read(path: edf)
        #expect(back.startTime.map { abs($0 - start) < 1e-6 } == true)
        #expect(back.markers.isEmpty, "a conversion adds no \"Recording starts\"")
    }

    @Test("XDF keeps the recording's start and markers: muse-lsl → XDF → BDF starts on 2017-02-04")
    func xdfKeepsTheStart() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let xdf = folder.appendingPathComponent("m.xdf").path
        let bdf = folder.appendingPathComponent("m.bdf").path
        let toXDF = try Self.axon(["convert", Self.muse, xdf])
        #expect(toXDF.status == 0, "\(toXDF.output)")
        let toBDF = try Self.axon(["convert", xdf, bdf])
        #expect(toBDF.status == 0, "\(toBDF.output)")
        let source = try RecordingReader.read(path: Self.muse)
        let back = try RecordingReader.read(path: bdf)
        let start = try #require(back.startTime)
        #expect(abs(start - 1_486_223_115.483) < 1e-6)
        #expect(back.markers.count == source.markers.count)
        #expect(back.markers.map(\.frame) == source.markers.map(\.frame))
    }

    @Test("EDF → EDF → EDF keeps one T0 annotation and the 2009 start")
    func repeatedConversionAddsNothing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var input = Self.physioNet
        for pass in 1...3 {
            let output = folder.appendingPathComponent("pass\(pass).edf").path
            let converted = try Self.axon(["convert", input, output, "--channels", "C3..,C4..,Oz.."])
            #expect(converted.status == 0, "\(converted.output)")
            input = output
        }
        let back = try RecordingReader.read(path: input)
        #expect(back.markers.compactMap(\.text) == ["T0"])
        #expect(back.startTime == 1_250_093_700)
    }

    /// An Axon CSV file of one channel with `label` at `rate` Hz, 40 samples of a ramp.
    static func axonCSV(label: String, rate: Double) -> String {
        var text = "# axon-csv 1\n# descriptor {\"channels\":[{\"label\":\"\(label)\",\"unit\":\"uV\"}],"
            + "\"contentType\":\"EEG\",\"format\":\"float32\",\"metadata\":{},\"name\":\"t\","
            + "\"nominalRate\":\(rate),\"sourceID\":\"s\"}\nsample,host_time,device_time,counter,\(label) (uV)\n"
        for frame in 0..<40 { text += "\(frame),\(1_764_201_600 + Double(frame) / rate),,,\(Double(frame) * 1.5)\n" }
        return text
    }

    @Test("a rate EDF cannot carry is exit 1 even with --allow-lossy; a label cut to 16 characters only without it")
    func whatEDFCannotCarry() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 0.37 Hz: no data record of 0.1…10 s holds a whole number of samples.
        let slow = folder.appendingPathComponent("slow.csv")
        try Self.axonCSV(label: "A", rate: 0.37).write(to: slow, atomically: true, encoding: .utf8)
        let slowEDF = folder.appendingPathComponent("slow.edf").path
        for extra in [[], ["--allow-lossy"]] {
            let refused = try Self.axon(["convert", slow.path, slowEDF] + extra)
            #expect(refused.status == 1, "\(refused.output)")
            #expect(refused.output.contains("cannot carry 0.370000 Hz"))
            #expect(!FileManager.default.fileExists(atPath: slowEDF))
        }
        // XDF carries it exactly.
        let slowXDF = folder.appendingPathComponent("slow.xdf").path
        #expect(try Self.axon(["convert", slow.path, slowXDF]).status == 0)
        #expect(try RecordingReader.read(path: slowXDF).sampleRate == 0.37)

        let long = folder.appendingPathComponent("long.csv")
        let longLabel = Self.axonCSV(label: "Left-occipital-O1-ref-A1", rate: 250)
        try longLabel.write(to: long, atomically: true, encoding: .utf8)
        let longEDF = folder.appendingPathComponent("long.edf").path
        let refused = try Self.axon(["convert", long.path, longEDF])
        #expect(refused.status == 1)
        #expect(refused.output.contains("the label is cut to EDF's 16 characters"))
        let lossy = try Self.axon(["convert", long.path, longEDF, "--allow-lossy"])
        #expect(lossy.status == 0, "\(lossy.output)")
        #expect(try RecordingReader.read(path: longEDF).channelLabels == ["Left-occipital-O"])
    }

    @Test("analyze on a truncated EDF says what info and replay say")
    func analyzeWarnsOfTruncation() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edf = folder.appendingPathComponent("m.edf").path
        #expect(try Self.axon(["convert", Self.muse, edf]).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: edf))
        bytes.removeLast(1000)
        try bytes.write(to: URL(fileURLWithPath: edf))
        let analyzed = try Self.axon(["analyze", edf])
        #expect(analyzed.status == 0, "\(analyzed.output)")
        #expect(analyzed.output.contains("warning: file truncated"), "\(analyzed.output)")
        let info = try Self.axon(["info", edf])
        #expect(info.output.contains("file truncated"))
    }
}
