import AxonDevices
import AxonRecording
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

@testable import AxonMuse

/// The in-process simulated Muse: the shared muse-lsl recording encoded into real notifications without D-Bus,
/// decoded by `MuseSource`, with the telemetry, motion and PPG streams of the same session.
@Suite(.serialized)
struct SimulatedMuseTests {
    static let recordingPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/muse-p300/data_2017-02-04-15_45_13-first14s.csv").path

    static func frames(_ recording: Recording) -> [[Double]] {
        (0..<recording.frameCount).map { Array(recording.frame($0)) }
    }

    /// PPG notifications written from the published layout (uint16 index, 6 × uint24, big-endian), not by an encoder.
    @Test func ppgPacketsDecodeFromThePublishedLayout() throws {
        let bytes: [UInt8] = [
            0x01, 0x02, 0x00, 0x00, 0x01, 0xFF, 0xFF, 0xFF, 0x12, 0x34, 0x56, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00,
            0x04, 0x93, 0xE0,
        ]
        let packet = try MuseAuxiliaryPacket.PPG(bytes: bytes)
        #expect(packet.index == 258)
        #expect(packet.samples == [1, 16_777_215, 1_193_046, 256, 8_388_608, 300_000])
        #expect(throws: MuseError.wrongLength(19)) { try MuseAuxiliaryPacket.PPG(bytes: Array(bytes.prefix(19))) }
        // The three channels of one index make six frames [ambient, infrared, red]; a missing channel drops the index.
        var assembler = MusePPGAssembler()
        let other = try MuseAuxiliaryPacket.PPG(bytes: [0x01, 0x02] + [UInt8](repeating: 0, count: 18))
        #expect(assembler.add(packet, channel: 0) == nil)
        #expect(assembler.add(other, channel: 1) == nil)
        let complete = assembler.add(other, channel: 2)
        let frames = try #require(complete)
        #expect(frames.0 == 258 && frames.1.count == 6 && frames.1[1] == [16_777_215, 0, 0])
        let next = try MuseAuxiliaryPacket.PPG(bytes: [0x01, 0x03] + [UInt8](repeating: 0, count: 18))
        _ = assembler.add(next, channel: 0)
        _ = assembler.add(packet, channel: 0)
        #expect(assembler.incomplete == 1)
    }

    @Test("in-process: every sample within 0.49 µV, lost indices as gaps, telemetry, motion and PPG streams")
    func roundTripWithAuxiliaryStreams() async throws {
        let recording = try RecordingReader.read(path: Self.recordingPath)
        let muse = SimulatedMuse(
            configuration: .init(
                frames: Self.frames(recording), speed: 8, ppg: true, droppedPackets: Set(40...42).union([100])))
        let source = try MuseSource(transport: muse, preset: "p20", keepAliveInterval: 0.5, includesPPG: true)
        let collect = CollectingSink()
        let pipeline = StreamPipeline(
            source: source, sinks: [collect],
            configuration: .init(ringCapacity: 16_384, timeline: source.timelineConfiguration))
        let auxiliary = Task {
            var samples: [MuseAuxiliarySample] = []
            for await sample in source.auxiliary { samples.append(sample) }
            return samples
        }
        try pipeline.start()
        _ = try await waitUntil(seconds: 30, interval: 0.02, onTimeout: .returnFalse) {
            source.state().statistics.packets >= 290
        }
        pipeline.stop()
        muse.closeBlocking()
        let samples = await auxiliary.value
        let contents = collect.snapshot
        let state = source.state()
        #expect(state.statistics.packets >= 290)
        #expect(contents.gaps.map(\.missingCount) == [36, 12])
        #expect(contents.gapPositions == [40 * 12, 97 * 12])
        let worst = contents.worstDifference(from: recording, channels: 5)
        print(
            "SimulatedMuse: \(contents.values.count) frames, worst difference \(worst) µV; \(samples.count) auxiliary samples"
        )
        #expect(worst <= 0.49)
        #expect(muse.counters().commands.prefix(3) == ["h", "p20", "d"])

        let byStream = Dictionary(grouping: samples, by: \.stream)
        let telemetry = try #require(byStream[.telemetry])
        #expect(telemetry.count >= 2)
        #expect(telemetry.allSatisfy { $0.frames[0][0] == 80 && abs($0.frames[0][1] - 3698.2) < 1e-9 })
        let accelerometer = try #require(byStream[.accelerometer])
        let gyroscope = try #require(byStream[.gyroscope])
        #expect(accelerometer.count > 20 && gyroscope.count == accelerometer.count)
        #expect(
            accelerometer.flatMap(\.frames).allSatisfy {
                zip($0, SimulatedMuse.acceleration).allSatisfy { abs($0 - $1) < 1e-4 }
            })
        #expect(
            gyroscope.flatMap(\.frames).allSatisfy {
                zip($0, SimulatedMuse.rotation).allSatisfy { abs($0 - $1) < 0.004 }
            })
        // PPG: consecutive 64 Hz samples of the simulator's pulse, exact (raw counts).
        let ppg = try #require(byStream[.ppg]).flatMap(\.frames)
        #expect(ppg.count >= 6 * 40)
        #expect(ppg.enumerated().allSatisfy { n, frame in frame == SimulatedMuse.ppgSample(n).map(Double.init) })
        #expect(state.ppgIncompletePackets == 0 && state.auxiliaryRejected == 0 && state.auxiliaryDropped == 0)
        // Each stream's descriptor: units g, deg/s, raw counts at 64 Hz, battery %.
        #expect(source.auxiliaryDescriptor(.accelerometer).channels.map(\.unit) == ["g", "g", "g"])
        #expect(source.auxiliaryDescriptor(.gyroscope).channels.map(\.unit) == ["deg/s", "deg/s", "deg/s"])
        #expect(source.auxiliaryDescriptor(.ppg).nominalRate == 64)
        #expect(source.auxiliaryDescriptor(.ppg).channels.map(\.unit) == ["counts", "counts", "counts"])
        #expect(source.auxiliaryDescriptor(.telemetry).channels.first?.unit == "%")
        #expect(source.auxiliaryDescriptor(.telemetry).sourceID == source.descriptor.sourceID + "/telemetry")
    }

    /// Half an hour of headset time at 120× (15 s of wall time): keep-alives every 5 s of headset time hold the
    /// stream against a 30 s keep-alive timeout; every packet arrives, none halts.
    @Test("a 30-minute accelerated session held by keep-alives")
    func thirtyMinuteSession() async throws {
        let recording = try RecordingReader.read(path: Self.recordingPath)
        let speed = 120.0
        let muse = SimulatedMuse(
            configuration: .init(frames: Self.frames(recording), speed: speed, keepAliveTimeout: 30, motion: true))
        let source = try MuseSource(transport: muse, preset: "p21", keepAliveInterval: 5 / speed)
        let pipeline = StreamPipeline(
            source: source, sinks: [SummarySink()],
            configuration: .init(ringCapacity: 1 << 16, timeline: source.timelineConfiguration))
        let drain = Task { for await _ in source.auxiliary {} }
        let started = HostClock.now()
        try pipeline.start()
        let target = 30 * 60 * 256
        _ = try await waitUntil(seconds: 40, interval: 0.05, onTimeout: .returnFalse) {
            source.state().statistics.frames >= target
        }
        let wall = HostClock.now() - started
        pipeline.stop()
        muse.closeBlocking()
        await drain.value
        let counters = muse.counters()
        let state = source.state()
        let statistics = pipeline.statistics()
        print(
            "Muse 30-minute session at \(speed)×: \(state.statistics.frames) frames in \(wall) s wall, "
                + "\(counters.keepAlives) keep-alives, \(counters.halts) halts, \(statistics.gapRecords) gap records")
        #expect(state.statistics.frames >= target)
        #expect(counters.halts == 0)
        #expect(counters.keepAlives >= 300)
        #expect(counters.keepAlives == state.keepAlivesSent)
        #expect(statistics.gapRecords == 0 && statistics.dropped == 0)
        #expect(state.statistics.missingPackets == 0)
    }

    /// Without keep-alives the simulated headset halts after its timeout, like the mock bluetoothd's.
    @Test func withoutKeepAlivesItHalts() async throws {
        let muse = SimulatedMuse(configuration: .init(frames: [[0, 0, 0, 0]], speed: 10, keepAliveTimeout: 3))
        let source = try MuseSource(transport: muse, preset: "p21", keepAliveInterval: 0)
        let pipeline = StreamPipeline(source: source, sinks: [SummarySink()], configuration: .init())
        try pipeline.start()
        _ = try await waitUntil(seconds: 5, interval: 0.02, onTimeout: .returnFalse) { muse.counters().halts > 0 }
        pipeline.stop()
        muse.closeBlocking()
        #expect(muse.counters().halts == 1)
        let frames = source.state().statistics.frames
        #expect((3 * 256 - 36...3 * 256 + 36).contains(frames), "\(frames) frames before the halt")
    }
}
