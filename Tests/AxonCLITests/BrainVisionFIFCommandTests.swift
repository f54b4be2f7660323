import AxonRecording
import Foundation
import StreamTestSupport
import Testing

/// `axon info` and `axon convert` on BrainVision and FIF files, as a user runs them.
@Suite("axon info and convert: BrainVision and FIF")
struct BrainVisionFIFCommandTests {
    static let physioNet = ConvertCommandTests.physioNet

    @Test("convert x.edf y.vhdr writes three files info describes; a second convert refuses to overwrite any of them")
    func convertAndInfo() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = folder.appendingPathComponent("s.vhdr").path
        let data = folder.appendingPathComponent("s.eeg").path
        let converted = try ConvertCommandTests.axon(["convert", Self.physioNet, header])
        #expect(converted.status == 0, "\(converted.output)")
        #expect(converted.output.contains("coding      IEEE_FLOAT_32, resolution 1 uV; every value exact"))
        #expect(converted.output.contains("(\(9760 * 64 * 4) bytes)"), "\(converted.output)")

        let info = try ConvertCommandTests.axon(["info", header])
        #expect(info.status == 0, "\(info.output)")
        for line in [
            "  format      BrainVision", "  frames      9760 at 160.000 Hz = 61.000 s", "  channels (64)",
            "  markers     1", "    frame 0 (0.000 s): T0", "    brainvision.binaryFormat: IEEE_FLOAT_32",
            "  start       2009-08-12T16:15:00.000Z",
        ] {
            #expect(info.output.contains(line), "missing \"\(line)\" in:\n\(info.output)")
        }

        // Again, without --force: refused before anything is read, the files untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: data))
        let again = try ConvertCommandTests.axon(["convert", Self.physioNet, header])
        #expect(again.status != 0)
        #expect(again.output.contains("\(header) exists; pass --force to replace it"), "\(again.output)")
        // Only the data file left: still refused, naming it.
        try FileManager.default.removeItem(atPath: header)
        let dataOnly = try ConvertCommandTests.axon(["convert", Self.physioNet, header])
        #expect(dataOnly.status != 0)
        #expect(dataOnly.output.contains("\(data) exists; pass --force to replace it"), "\(dataOnly.output)")
        #expect(!FileManager.default.fileExists(atPath: header))
        #expect(try Data(contentsOf: URL(fileURLWithPath: data)) == before)
        let forced = try ConvertCommandTests.axon(["convert", Self.physioNet, header, "--force"])
        #expect(forced.status == 0, "\(forced.output)")
    }

    @Test("OpenBCI GUI text to BrainVision: INT_32 at the text's 0.01 µV, every value exact")
    func openBCIToBrainVision() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = folder.appendingPathComponent("cyton.vhdr").path
        let converted = try ConvertCommandTests.axon(["convert", ConvertCommandTests.openBCI, header, "--to", "20"])
        #expect(converted.status == 0, "\(converted.output)")
        #expect(
            converted.output.contains("coding      INT_32, resolution 0.01 µV; every value exact"),
            "\(converted.output)")
        let source = try RecordingReader.read(path: ConvertCommandTests.openBCI).segment(from: 0, to: 20)
        let back = try RecordingReader.read(path: header)
        #expect(back.frameCount == source.frameCount)
        #expect(zip(back.values, source.values).allSatisfy { abs($0 - $1) < 1e-8 })
    }

    @Test(
        "info on MNE's FIF: format, channels with units, start, annotations; convert FIF → BrainVision keeps every value"
    )
    func fifInfo() throws {
        guard FileManager.default.isExecutableFile(atPath: ConvertCommandTests.python) else { return }
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try RecordingReader.read(path: Self.physioNet).selecting(channels: ["C3..", "C4.."])
        var volts: [Double] = []
        for channel in 0..<2 {
            volts += (0..<source.frameCount).map { source.value(frame: $0, channel: channel) * 1e-6 }
        }
        let values = folder.appendingPathComponent("v.f64")
        try volts.withUnsafeBytes { try Data($0).write(to: values) }
        let meta = folder.appendingPathComponent("m.json")
        let start = try #require(source.startTime)
        let json =
            #"{"labels": ["C3", "C4"], "rate": 160, "meas_date": \#(start), "annotations": [[2.5, 0, "T1"]], "#
            + #""subject_info": {"his_id": "P-0042", "last_name": "Doe", "birthday": "1951-08-02", "sex": 2}, "#
            + #""experimenter": "Dr Who"}"#
        try Data(json.utf8).write(to: meta)
        let fif = folder.appendingPathComponent("s_raw.fif").path
        let script = ConvertCommandTests.root.appendingPathComponent("scripts/mne-write.py").path
        let saved = try AxonExecutable.run(ConvertCommandTests.python, [script, "fif", values.path, meta.path, fif])
        #expect(saved.status == 0, "\(saved.output)")

        let info = try ConvertCommandTests.axon(["info", fif])
        #expect(info.status == 0, "\(info.output)")
        for line in [
            "  format      FIF", "  stream      FIF EEG (EEG), native sample format float32",
            "  frames      9760 at 160.000 Hz = 61.000 s", "  start       2009-08-12T16:15:00.000Z", "  channels (2)",
            "    C3           µV", "  markers     1", "    frame 400 (2.500 s): T1", "    fif.kind: eeg",
        ] {
            #expect(info.output.contains(line), "missing \"\(line)\" in:\n\(info.output)")
        }
        let identifiers = try ConvertCommandTests.axon(["info", "--identifiers", fif])
        for line in [
            "subject hisID — FIFFB_SUBJECT block: \"P-0042\"", "subject lastName — FIFFB_SUBJECT block: \"Doe\"",
            "subject birthday — FIFFB_SUBJECT block: \"1951-08-02\"",
            "experimenter — FIFFB_MEAS_INFO block: \"Dr Who\"",
            "measurement date — FIFF_MEAS_DATE", "annotation text — annotations block, frame 400: \"T1\"",
        ] {
            #expect(identifiers.output.contains(line), "missing \"\(line)\" in:\n\(identifiers.output)")
        }
        // float32 volts given in µV: IEEE_FLOAT_32 at a resolution of 10⁶ µV keeps every value.
        let header = folder.appendingPathComponent("s.vhdr").path
        let converted = try ConvertCommandTests.axon(["convert", fif, header])
        #expect(converted.status == 0, "\(converted.output)")
        #expect(
            converted.output.contains("IEEE_FLOAT_32, resolution 1000000 µV; every value exact"), "\(converted.output)")
        let back = try RecordingReader.read(path: header)
        #expect(back.values == (try RecordingReader.read(path: fif)).values)
    }
}
