import AxonRecording
import AxonStreams
import Foundation
import Testing

/// `axon info` and `axon convert` on a BDF with a BioSemi `Status` channel, as a user runs them: the triggers and
/// device status events are listed and counted, `--keep-status-channel` keeps the channel, and a converted EDF+
/// carries every trigger.
@Suite("axon info/convert: BioSemi Status")
struct StatusChannelCommandTests {
    /// A BDF+ with one EEG channel and a `Status` channel holding the raw word: CMS in range, speed mode 4, trigger
    /// 12 on frames 20–29, 200 on frames 60–69, CMS out of range on frames 100–119. Axon's writer has a symmetric
    /// digital range (±8,388,607); with the physical range 1…16,777,215 its gain is exactly 1 and each word is
    /// stored as word − 8,388,608: the word with bit 23 (Mk2) flipped, every other bit as given.
    static func bdf(in folder: URL) throws -> String {
        let frames = 256
        var values: [Double] = []
        for frame in 0..<frames {
            var word = 1 << 20 | 1 << 19
            if (20..<30).contains(frame) { word |= 12 }
            if (60..<70).contains(frame) { word |= 200 }
            if (100..<120).contains(frame) { word &= ~(1 << 20) }
            values += [Double(frame % 50) - 25, Double(word)]
        }
        let descriptor = StreamDescriptor(
            name: "BDF EEG", contentType: .eeg,
            channels: [
                ChannelInfo(label: "Fz", unit: "uV", range: -100...100),
                ChannelInfo(label: "Status", unit: "", range: 1...16_777_215),
            ],
            nominalRate: 128, format: .int24, sourceID: "test")
        let recording = Recording(
            descriptor: descriptor, values: values,
            timestamps: (0..<frames).map { 1_764_201_600 + Double($0) / 128 })
        let path = folder.appendingPathComponent("status.bdf").path
        _ = try EDFConversion.write(recording, to: path, format: .bdfPlus)
        return path
    }

    @Test("info lists the triggers and status events; --keep-status-channel keeps the channel; convert keeps them")
    func infoAndConvert() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.bdf(in: folder)
        let expected = [
            "frame 20 (0.156 s): trigger 12", "frame 60 (0.469 s): trigger 200",
            "frame 100 (0.781 s): CMS out of range",
            "frame 120 (0.938 s): CMS in range",
        ]

        let info = try ConvertCommandTests.axon(["info", path])
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("channels (1)"))
        #expect(
            info.output.contains(
                "edf.status: signal 2 (\"Status\") decoded as BioSemi's Status channel: 2 triggers, 2 device status "
                    + "events (CMS out of range ×1, CMS in range ×1); speed mode 4, ActiveTwo Mk2"), "\(info.output)")
        for line in expected { #expect(info.output.contains(line), "\(line)\n\(info.output)") }

        let kept = try ConvertCommandTests.axon(["info", "--keep-status-channel", path])
        #expect(kept.status == 0, "\(kept.output)")
        #expect(kept.output.contains("channels (2)"))
        #expect(kept.output.contains("\n    Status "), "\(kept.output)")
        #expect(kept.output.contains("the channel kept raw"))

        let edf = folder.appendingPathComponent("out.edf").path
        let converted = try ConvertCommandTests.axon(["convert", path, edf])
        #expect(converted.status == 0, "\(converted.output)")
        let back = try ConvertCommandTests.axon(["info", edf])
        #expect(back.output.contains("markers     4"), "\(back.output)")
        for line in expected { #expect(back.output.contains(line), "\(line)\n\(back.output)") }
    }
}
