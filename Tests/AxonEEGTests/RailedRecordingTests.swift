import AxonEEG
import AxonRecording
import AxonStreams
import Foundation
import Testing

/// `axon analyze` on the 2016-era OpenBCI GUI sample (datasets/README.md): all 8 channels analysed, the rail taken
/// from the channels' declared range (±187500 µV at gain 24), and the two channels the sample holds at the rails
/// reported railed — the file's values are not clipped or dropped on the way.
@Suite("Railed channels of an older OpenBCI file")
struct RailedRecordingTests {
    static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("datasets/openbci-cyton-eyes-closed/OpenBCI-RAW-2016-format-first20s.txt").path
    }

    @Test func theQualityTableShowsTheRailedChannels() throws {
        let recording = try RecordingReader.read(path: Self.path)
        var configuration = EEGEngine.Configuration(windowSize: 256, hop: 250)
        configuration.sampleRate = recording.sampleRate
        configuration.channelLabels = recording.channelLabels
        // What `axon analyze` does without --rail.
        let range = try #require(recording.descriptor.channels.compactMap(\.range).first)
        configuration.quality.railMagnitude = max(abs(range.lowerBound), abs(range.upperBound))
        let report = try EEGOfflineAnalysis.run(
            configuration: configuration, frameCount: recording.frameCount, baselineSeconds: nil,
            value: { recording.value(frame: $0, channel: $1) }, time: { recording.time(ofFrame: $0) })
        #expect(report.channels.map(\.label) == (0..<8).map { "EXG\($0)" })
        let railed = report.channels.map(\.quality.railedFraction)
        // EXG5 sits at −187500.02 µV for 4 s of the 20, EXG3 at +187500.00 µV for 0.5 s.
        #expect(railed[5] > 0.15 && railed[5] < 0.25, "EXG5 railed \(railed[5])")
        #expect(railed[3] > 0.01 && railed[3] < 0.05, "EXG3 railed \(railed[3])")
        for channel in [0, 1, 2, 4, 6, 7] { #expect(railed[channel] == 0) }
        #expect(report.channels[5].quality.unusableFrames >= 4)
        #expect(report.channels[3].quality.unusableFrames >= 1)
    }
}
