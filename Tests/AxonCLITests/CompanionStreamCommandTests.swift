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
}
