import AxonRecording
import Foundation
import StreamTestSupport
import Testing

/// Files with more than one stream through the built `axon`: Mind Monitor's band powers beside its RAW EEG are kept
/// by `convert` (issue 39), `info` lists every stream, and a format that cannot hold them refuses to drop them
/// unless `--allow-lossy`.
@Suite("axon info and convert with companion streams")
struct CompanionStreamCommandTests {
    static let mindMonitor = ConvertCommandTests.root.appendingPathComponent(
        "datasets/muse-p300/mindMonitor-2017-format-first4s.csv"
    ).path

    @Test("Mind Monitor's band powers: listed by info, kept by XDF, refused by CSV and EDF unless --allow-lossy")
    func mindMonitorBandPowersAreKept() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (infoStatus, info) = try ConvertCommandTests.axon(["info", Self.mindMonitor])
        #expect(infoStatus == 0, "\(info)")
        #expect(info.contains("stream 2    20 channels at"), "\(info)")
        #expect(info.contains("Delta_TP9"), "\(info)")

        let xdf = folder.appendingPathComponent("mm.xdf").path
        let (status, output) = try ConvertCommandTests.axon(["convert", Self.mindMonitor, xdf])
        #expect(status == 0, "\(output)")
        let source = try MindMonitorCSVReader().read(path: Self.mindMonitor)
        let bands = try #require(source.bandPowers)
        let back = try RecordingReader.read(path: xdf)
        #expect(back.channelLabels == ["TP9", "AF7", "AF8", "TP10"])
        let kept = try #require(back.companions.first, "the band powers are missing from the XDF file")
        #expect(kept.channelLabels == bands.channelLabels)
        #expect(kept.values == bands.values && kept.timestamps == bands.timestamps)

        for format in ["csv", "edf"] {
            let out = folder.appendingPathComponent("mm.\(format)").path
            let (refused, message) = try ConvertCommandTests.axon(["convert", Self.mindMonitor, out])
            #expect(refused == 1, "\(message)")
            #expect(message.contains("loss: ") && message.contains("Delta_TP9"), "\(message)")
            #expect(!FileManager.default.fileExists(atPath: out))
            let (allowed, written) = try ConvertCommandTests.axon(["convert", Self.mindMonitor, out, "--allow-lossy"])
            #expect(allowed == 0, "\(written)")
            #expect(try RecordingReader.read(path: out).companions.isEmpty)
        }
    }

    @Test(
        "an EDF with signals at two rates: info lists both streams, convert to BDF+ and XDF keeps both",
        .enabled(if: FileManager.default.isExecutableFile(atPath: ConvertCommandTests.python)))
    func twoRatesThroughInfoAndConvert() throws {
        // pyedflib's legacy test file: 11 signals at 200 Hz and one at 57 Hz (a BDF+ keeps it as a signal: its
        // annotation signal is "BDF Annotations").
        let (_, directory) = try AxonExecutable.run(
            ConvertCommandTests.python,
            [ConvertCommandTests.root.appendingPathComponent("scripts/pyedflib-read.py").path, "--data-dir"])
        let input = directory.trimmingCharacters(in: .whitespacesAndNewlines) + "/test_legacy.edf"
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, info) = try ConvertCommandTests.axon(["info", input])
        #expect(status == 0, "\(info)")
        #expect(info.contains("channels (11)") && info.contains("stream 2    1 channel at 57.000 Hz"), "\(info)")
        #expect(info.contains("edf.streams: 11 at 200 Hz, 1 at 57 Hz"), "\(info)")
        for format in ["bdf", "xdf"] {
            let out = folder.appendingPathComponent("legacy.\(format)").path
            let (converted, output) = try ConvertCommandTests.axon(["convert", input, out])
            #expect(converted == 0, "\(output)")
            #expect(output.contains("1 channels at 57.000 Hz"), "\(output)")
            let (_, again) = try ConvertCommandTests.axon(["info", out])
            #expect(again.contains("stream 2    1 channel at 57.000 Hz"), "\(format): \(again)")
        }
        // The 57 Hz signal is labelled "EDF Annotations" (a plain EDF's old annotation channel, a signal to EDFlib):
        // EDF+ gives that label to its annotation signal, so an EDF+ file cannot carry it under it.
        let edf = folder.appendingPathComponent("legacy.edf").path
        let (refused, message) = try ConvertCommandTests.axon(["convert", input, edf])
        #expect(refused == 1 && message.contains("loss: EDF Annotations: EDF+ gives this label"), "\(message)")
        let (allowed, written) = try ConvertCommandTests.axon(["convert", input, edf, "--allow-lossy"])
        #expect(allowed == 0, "\(written)")
        #expect(try RecordingReader.read(path: edf).channelCount == 11)
    }
}
