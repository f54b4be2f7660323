import AxonDevices
import AxonOpenBCI
import AxonRecording
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

/// The shared OpenBCI recording through bytes: recording → simulated Cyton → pty → CytonBoard's text exchange →
/// decoder → pipeline → BDF+ file, read back by EDFlib and compared sample by sample.
@Suite("Cyton round trip", .serialized)
struct CytonRoundTripTests {
    static let recordingPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path


    @Test(
        "8 channels at 250 Hz: every sample within 0.03 µV, lost packets as gap records of their length, faults counted"
    )
    func cyton() throws {
        let recording = try RecordingReader.read(path: Self.recordingPath)
        #expect(recording.channelCount == 8 && recording.frameCount == 22_490)
        let speed = 40.0
        let faults: [SimulatedCytonFault] = [
            .drop(packets: 3_000..<3_005),  // 5 packets lost on the radio
            .truncate(packet: 6_000, keep: 20),
            .garbage(afterPacket: 9_000, bytes: [0x13, 0xA0, 0x01, 0xC0, 0x7E, 0xA0]),
            .wrongFooter(packet: 12_000),
            .drop(packets: 15_000..<15_037),  // 37 packets, across a sample-number wrap
        ]
        let simulator = try SimulatedCyton(
            configuration: .init(values: recording.values, channelCount: 8, speed: speed, faults: faults))
        try simulator.start()
        defer { simulator.stop() }
        let board = CytonBoard(path: simulator.path)
        let banner = try board.connect()
        #expect(!banner.hasDaisy && banner.firmware == "v3.1.2")
        let source = try CytonSource(board: board)
        #expect(source.descriptor.nominalRate == 250 && source.descriptor.channelCount == 8)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-cyton-\(getpid()).bdf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = EDFSink(path: path, options: .init(format: .bdfPlus))
        let collect = CollectingSink()
        let pipeline = StreamPipeline(
            source: source, sinks: [file, collect],
            configuration: .init(ringCapacity: 16_384, overflow: .rejectNewest, timeline: source.timelineConfiguration))
        try pipeline.start()
        let lost = [3_000, 3_001, 3_002, 3_003, 3_004, 6_000, 12_000] + Array(15_000..<15_037)
        let expectedFrames = recording.frameCount - lost.count
        waitUntil(seconds: 120, interval: 0.005) {
            simulator.counters().finished && source.state().statistics.frames >= expectedFrames - 1
        }
        pipeline.stop()

        let statistics = source.state().statistics
        #expect(statistics.frames == expectedFrames)
        #expect(statistics.truncatedPackets == 1)
        #expect(statistics.wrongFooters == 1)
        #expect(statistics.garbageRuns == 1)
        #expect(statistics.missingPackets == lost.count)
        #expect(statistics.accelerometerReadings > 2_000)
        #expect(simulator.counters().commands.prefix(3) == ["s", "v", "b"])

        // Gap records: where and how long, from the sample numbers alone.
        let contents = collect.snapshot
        #expect(contents.gaps.map(\.missingCount) == [5, 1, 1, 37])
        #expect(contents.gapPositions == [3_000, 6_000 - 5, 12_000 - 6, 15_000 - 7])
        #expect(contents.gaps.allSatisfy { $0.cause == .deviceCounter })
        // The dejittered clock follows the pace the frames came at. That pace is compared, not the nominal 40×:
        // on a loaded machine the simulator falls behind it (a mean of 164 µs against 100 once, in a full make test).
        let timing = contents.timestampSpacing
        let arrivals = contents.arrivals
        let pace = (arrivals.last! - arrivals.first!) / Double(arrivals.count - 1 + lost.count)
        print(
            "Cyton at \(speed)×: dejittered spacing mean \(timing.mean * 1e6) µs, std \(timing.std * 1e6) µs; "
                + "arrivals every \(pace * 1e6) µs")
        #expect(abs(timing.mean - pace) < 0.2 * pace)

        // The file: the recording's values at their own sample index, within the 24-bit quantisation.
        let written = try EDFFileReader(keepsCompleteRecords: false).read(path: path)
        #expect(written.channelCount == 8)
        #expect(written.frameCount >= recording.frameCount - 250)
        let lostSet = Set(lost)
        var worst = 0.0
        var compared = 0
        for frame in 0..<min(written.frameCount, recording.frameCount) where !lostSet.contains(frame) {
            for channel in 0..<8 {
                worst = max(
                    worst,
                    abs(
                        written.value(frame: frame, channel: channel)
                            - recording.value(frame: frame, channel: channel)))
            }
            compared += 1
        }
        print("Cyton round trip: \(compared) frames compared, worst difference \(worst) µV")
        #expect(compared >= recording.frameCount - 250 - lost.count)
        #expect(worst <= 0.03)
        let gapTexts = written.markers.compactMap(\.text).filter { $0.hasPrefix("gap:") }
        #expect(
            gapTexts == [
                "gap: 5 samples (deviceCounter)", "gap: 1 samples (deviceCounter)", "gap: 1 samples (deviceCounter)",
                "gap: 37 samples (deviceCounter)",
            ])
    }

    @Test("a Daisy: 16 channels at 125 Hz from alternating packets, within 0.03 µV")
    func daisy() throws {
        // 16 channels from the 8-channel recording: frame i is recording frames 2i (board) and 2i + 1 (Daisy).
        let recording = try RecordingReader.read(path: Self.recordingPath).segment(from: 0, to: 40)
        let frames = recording.frameCount / 2
        let values = (0..<frames).flatMap { frame in
            Array(recording.frame(2 * frame)) + Array(recording.frame(2 * frame + 1))
        }
        let simulator = try SimulatedCyton(
            configuration: .init(values: values, channelCount: 16, speed: 40, faults: [.drop(packets: 1_000..<1_006)]))
        try simulator.start()
        defer { simulator.stop() }
        let board = CytonBoard(path: simulator.path)
        #expect(try board.connect().hasDaisy)
        let source = try CytonSource(board: board)
        #expect(source.descriptor.nominalRate == 125 && source.descriptor.channelCount == 16)
        #expect(source.descriptor.channels.last?.label == "EXG15")
        let collect = CollectingSink()
        let pipeline = StreamPipeline(
            source: source, sinks: [collect],
            configuration: .init(ringCapacity: 8_192, overflow: .rejectNewest, timeline: source.timelineConfiguration))
        try pipeline.start()
        waitUntil(seconds: 120, interval: 0.005) {
            simulator.counters().finished && source.state().statistics.frames >= frames - 4
        }
        pipeline.stop()
        let contents = collect.snapshot
        // Packets 1000…1005 are frames 500, 501 and 502, both halves.
        #expect(contents.values.count == frames - 3)
        #expect(contents.gaps.map(\.missingCount) == [3])
        #expect(contents.gapPositions == [500])
        var worst = 0.0
        for (position, frame) in contents.values.enumerated() {
            let index = position < 500 ? position : position + 3
            for channel in 0..<16 { worst = max(worst, abs(frame[channel] - values[index * 16 + channel])) }
        }
        print("Daisy round trip: \(contents.values.count) frames of 16 channels, worst difference \(worst) µV")
        #expect(worst <= 0.03)
        #expect(source.state().statistics.unpairedPackets == 0)
    }

    @Test("a gain set by channel settings is used by the simulator to encode and by the decoder to scale")
    func trackedGain() throws {
        let recording = try RecordingReader.read(path: Self.recordingPath).segment(from: 30, to: 34)
        let simulator = try SimulatedCyton(configuration: .init(values: recording.values, channelCount: 8, speed: 20))
        try simulator.start()
        defer { simulator.stop() }
        let board = CytonBoard(path: simulator.path)
        _ = try board.connect()
        try board.configure(CytonChannelSettings(channel: 7, gain: .x8))
        #expect(board.gains[6] == .x8)
        #expect(throws: CytonError.noDaisy(channel: 9)) { try board.configure(CytonChannelSettings(channel: 9)) }
        let source = try CytonSource(board: board, channels: ["EXG6", "EXG7"])
        #expect(source.descriptor.channels.map(\.label) == ["EXG6", "EXG7"])
        #expect(source.descriptor.channels[0].range == -562_500...562_500)
        #expect(source.descriptor.channels[1].range == -187_500...187_500)
        let collect = CollectingSink()
        let pipeline = StreamPipeline(
            source: source, sinks: [collect], configuration: .init(timeline: source.timelineConfiguration))
        try pipeline.start()
        waitUntil(seconds: 60, interval: 0.005) {
            simulator.counters().finished && source.state().statistics.frames >= 999
        }
        pipeline.stop()
        let contents = collect.snapshot
        #expect(contents.values.count == recording.frameCount)
        var worst = [0.0, 0.0]
        for (frame, values) in contents.values.enumerated() {
            for (position, channel) in [6, 7].enumerated() {
                worst[position] = max(
                    worst[position], abs(values[position] - recording.value(frame: frame, channel: channel)))
            }
        }
        // Channel 7 (EXG6) at gain 8: within half a count there (0.0335 µV), coarser than gain 24 allows; EXG7 at
        // gain 24 within 0.0112 µV.
        #expect(worst[0] <= CytonGain.x8.microvoltsPerCount / 2 + 1e-9)
        #expect(worst[0] > CytonGain.x24.microvoltsPerCount / 2)
        #expect(worst[1] <= CytonGain.x24.microvoltsPerCount / 2 + 1e-9)
        #expect(simulator.counters().commands.contains("x7040110X"))
    }
}
