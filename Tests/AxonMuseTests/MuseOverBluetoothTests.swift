import AxonBluetooth
import AxonDevices
import AxonMuse
import AxonRecording
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// The shared muse-lsl recording through bytes: the mock bluetoothd's `muse` kind encodes it into Muse EEG
/// notifications on a private bus; BlueZTransport → MuseSource → pipeline → EDF+, compared sample by sample.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct MuseOverBluetoothTests {
    static let address = "C0:FF:EE:00:00:20"
    static let name = "Muse-0020"
    static let recordingPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/muse-p300/data_2017-02-04-15_45_13-first14s.csv").path

    static func device(_ options: String) -> String { "muse,\(address),\(name),csv=\(recordingPath)" + options }

    @Test("every sample within 0.49 µV, lost packet indices as gap records of 12 samples each, dejittered spacing")
    func roundTrip() async throws {
        let recording = try RecordingReader.read(path: Self.recordingPath)
        #expect(recording.channelCount == 5 && recording.frameCount == 3584)
        // 4× the headset's real rate; packets 40–42 and 100 of the stream are lost on the radio.
        let bed = try BlueZTestBed(devices: [Self.device(",speed=4,drop=40-42+100")])
        defer { bed.stop() }
        let run = try await MuseRun(bed: bed)
        try run.pipeline.start()
        let done = try await waitUntil(seconds: 60, interval: 0.02, onTimeout: .returnFalse) {
            run.source.state().statistics.packets >= 290
        }
        run.stop()
        #expect(done)
        let contents = run.collect.snapshot
        let state = run.source.state()
        #expect(state.statistics.missingPackets == 4)
        #expect(state.statistics.incompletePackets == 0)
        #expect(state.telemetry?.batteryPercent == 80)
        #expect(state.telemetry.map { abs($0.fuelGaugeMillivolts - 3698.2) < 1e-9 } == true)
        #expect(contents.gaps.map(\.missingCount) == [36, 12])
        #expect(contents.gaps.allSatisfy { $0.cause == .deviceCounter })
        let first = try #require(contents.counters.first)
        // Gaps sit after 40 received packets (0–39) and after 97 (then 43–99).
        #expect(contents.gapPositions == [40 * 12, 97 * 12])
        let commands = try await bed.stats(Self.address)["commands"]?.stringValue ?? ""
        #expect(commands.hasPrefix("h p20 d"))

        let worst = contents.worstDifference(from: recording, channels: 5)
        print(
            "Muse round trip: \(contents.values.count) frames from packet index \(first / 12), worst difference "
                + "\(worst) µV")
        #expect(worst <= 0.49)

        let (mean, std) = contents.timestampSpacing
        print(
            "Muse at 4×: dejittered spacing mean \(mean * 1e6) µs, std \(std * 1e6) µs (raw arrivals come 12 at a time)"
        )
        #expect(abs(mean - 1 / (256 * 4)) < 0.2 / (256 * 4))

        let file = try EDFFileReader(keepsCompleteRecords: false).read(path: run.edfPath)
        #expect(file.channelLabels == ["TP9", "AF7", "AF8", "TP10", "Right AUX"])
        #expect(file.sampleRate == 256)
        let gapTexts = file.markers.compactMap(\.text).filter { $0.hasPrefix("gap:") }
        #expect(gapTexts == ["gap: 36 samples (deviceCounter)", "gap: 12 samples (deviceCounter)"])
        var worstInFile = 0.0
        for frame in 0..<min(file.frameCount, 40 * 12) {
            let row = Int(first + UInt64(frame)) % recording.frameCount
            for channel in 0..<5 {
                worstInFile = max(
                    worstInFile,
                    abs(
                        file.value(frame: frame, channel: channel)
                            - recording.value(frame: row, channel: channel)))
            }
        }
        #expect(worstInFile <= 0.49)
    }

    @Test("a link loss mid-stream: reconnected and streaming again within 2 s of the headset's return, one gap in EDF+")
    func linkLoss() async throws {
        let bed = try BlueZTestBed(devices: [Self.device(",motion=1")])
        defer { bed.stop() }
        let run = try await MuseRun(bed: bed)
        try run.pipeline.start()
        try await waitUntil(seconds: 30, interval: 0.02) { run.source.state().statistics.packets >= 40 }
        let lossAt = HostClock.now()
        _ = try await bed.control("LinkLoss", [.string(Self.address), .double(2)])
        let back = lossAt + 2
        let before = run.source.state().statistics.packets
        let resumed = try await waitUntil(seconds: 30, interval: 0.02, onTimeout: .returnFalse) {
            run.source.state().statistics.packets > before + 5 && HostClock.now() > back
        }
        #expect(resumed)
        try await waitUntil(seconds: 10, interval: 0.02) { run.source.state().statistics.packets > before + 40 }
        // Read once the sink has the frames the source counted (it records their arrival at the source).
        _ = try await waitUntil(seconds: 10, interval: 0.02, onTimeout: .returnFalse) {
            run.collect.firstArrival(after: back) != nil
        }
        let firstData = run.collect.firstArrival(after: back)
        run.stop()
        let resumeDelay = try #require(firstData) - back
        print("Muse link loss: data again \(resumeDelay) s after the headset returned")
        #expect(resumeDelay < 2)
        let state = run.source.state()
        #expect(state.linkLosses == 1 && state.startsSent == 2)
        // The accelerometer and gyroscope, decoded from their own notifications: (0, 0, 1) g and (0.5, −0.5, 0) °/s.
        #expect(state.accelerometerPackets > 20 && state.gyroscopePackets > 20)
        #expect(zip(state.acceleration ?? [], [0, 0, 1.0]).allSatisfy { abs($0 - $1) < 1e-4 })
        #expect(zip(state.rotation ?? [], [0.5, -0.5, 0]).allSatisfy { abs($0 - $1) < 0.004 })
        let gaps = run.collect.snapshot.gaps
        #expect(gaps.count == 1)
        #expect(gaps.first?.cause == .linkLoss)
        // 2 s out of range plus the reconnection, at 256 Hz, in whole packets.
        let missing = gaps.first?.missingCount ?? 0
        #expect((512...(256 * 5)).contains(missing) && missing % 12 == 0)
        let file = try EDFFileReader(keepsCompleteRecords: false).read(path: run.edfPath)
        #expect(file.markers.compactMap(\.text).contains("gap: \(missing) samples (linkLoss)"))
    }

    @Test("a Muse 2 through BlueZ: telemetry, accelerometer, gyroscope and PPG as streams of their own")
    func auxiliaryStreams() async throws {
        let bed = try BlueZTestBed(devices: [Self.device(",speed=4,motion=1,ppg=1")])
        defer { bed.stop() }
        let run = try await MuseRun(bed: bed, preset: "p50", includesPPG: true)
        let source = run.source
        let collected = Task {
            var samples: [MuseAuxiliarySample] = []
            for await sample in source.auxiliary { samples.append(sample) }
            return samples
        }
        try run.pipeline.start()
        try await waitUntil(seconds: 30, interval: 0.02) { source.state().statistics.packets >= 150 }
        run.stop()
        let samples = await collected.value
        let byStream = Dictionary(grouping: samples, by: \.stream)
        let telemetry = try #require(byStream[.telemetry])
        #expect(telemetry.allSatisfy { $0.frames[0][0] == 80 && abs($0.frames[0][1] - 3698.2) < 1e-9 })
        let accelerometer = try #require(byStream[.accelerometer]).flatMap(\.frames)
        let gyroscope = try #require(byStream[.gyroscope]).flatMap(\.frames)
        #expect(accelerometer.count >= 3 * 20 && accelerometer.count == gyroscope.count)
        #expect(accelerometer.allSatisfy { zip($0, [0, 0, 1.0]).allSatisfy { abs($0 - $1) < 1e-4 } })
        #expect(gyroscope.allSatisfy { zip($0, [0.5, -0.5, 0]).allSatisfy { abs($0 - $1) < 0.004 } })
        // The mock's 64 Hz pulse, sample by sample from the first, exact in raw counts.
        let ppg = try #require(byStream[.ppg]).flatMap(\.frames)
        print(
            "Muse 2 via BlueZ: \(telemetry.count) telemetry, \(accelerometer.count) accelerometer, \(ppg.count) PPG samples"
        )
        #expect(ppg.count >= 6 * 50)
        #expect(ppg.enumerated().allSatisfy { n, frame in frame == SimulatedMuse.ppgSample(n).map(Double.init) })
        let state = source.state()
        #expect(state.ppgIncompletePackets == 0 && state.auxiliaryRejected == 0 && state.auxiliaryDropped == 0)
        let commands = try await bed.stats(Self.address)["commands"]?.stringValue ?? ""
        #expect(commands.hasPrefix("h p50 d"))
    }

    @Test("keep-alives hold an accelerated 2-minute session; without them the headset halts")
    func keepAlive() async throws {
        // The headset's clock runs 10× and halts after 3 s of its time without a `k`.
        let bed = try BlueZTestBed(devices: [Self.device(",speed=10,keepalive_timeout=3")])
        defer { bed.stop() }
        let run = try await MuseRun(bed: bed, keepAliveInterval: 0.1)  // 1 s of headset time
        try run.pipeline.start()
        let held = try await waitUntil(seconds: 60, interval: 0.02, onTimeout: .returnFalse) {
            run.source.state().statistics.frames >= 120 * 256
        }
        run.stop()
        #expect(held)
        let stats = try await bed.stats(Self.address)
        let keepAlives = stats["keepalives"]?.integerValue ?? -1
        print(
            "Muse keep-alive: \(run.source.state().statistics.frames) frames, \(keepAlives) keep-alives received, "
                + "halts \(stats["halts"]?.integerValue ?? -1)")
        #expect(stats["halts"]?.integerValue == 0)
        #expect(keepAlives >= 100)
        #expect(keepAlives == run.source.state().keepAlivesSent)

        let quiet = try BlueZTestBed(devices: [Self.device(",speed=10,keepalive_timeout=3")])
        defer { quiet.stop() }
        let silent = try await MuseRun(bed: quiet, keepAliveInterval: 0)
        try silent.pipeline.start()
        // The headband halts once it has had no keep-alive for 3 s.
        try await waitUntil(seconds: 10, interval: 0.1) {
            try await quiet.stats(Self.address)["halts"]?.integerValue == 1
        }
        silent.stop()
        #expect(try await quiet.stats(Self.address)["halts"]?.integerValue == 1)
        let frames = silent.source.state().statistics.frames
        #expect((3 * 256 - 36...3 * 256 + 36).contains(frames), "\(frames) frames before the halt")
    }
}

/// One Muse run over the bed's bus into a collecting sink and an EDF+ file.
final class MuseRun: @unchecked Sendable {
    // Sendable invariant: immutable after init; collections are locked.
    let central: BluetoothCentral
    let source: MuseSource
    let collect = CollectingSink()
    let pipeline: StreamPipeline
    let edfPath: String
    let events = ThreadLocked<[(Double, LinkEvent)]>([])

    init(bed: BlueZTestBed, keepAliveInterval: Double = 1, preset: String = "p20", includesPPG: Bool = false)
        async throws
    {
        edfPath = FileManager.default.temporaryDirectory.appendingPathComponent("axon-muse-\(UUID()).edf").path
        central = try await BluetoothCentral.open(bus: .address(bed.address))
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: MuseOverBluetoothTests.name,
                discovery: DiscoveryFilter(serviceUUIDs: [MuseGATTProfile.service]), connectTimeout: 5,
                openTimeout: 15))
        let events = events
        source = try MuseSource(
            transport: transport, preset: preset, keepAliveInterval: keepAliveInterval, includesPPG: includesPPG
        ) { event in
            events.withLock { $0.append((HostClock.now(), event)) }
        }
        pipeline = StreamPipeline(
            source: source, sinks: [EDFSink(path: edfPath, options: .init(format: .edfPlus)), collect],
            configuration: .init(ringCapacity: 16_384, timeline: source.timelineConfiguration))
    }

    deinit { try? FileManager.default.removeItem(atPath: edfPath) }

    func stop() {
        pipeline.stop()
        central.close()
    }
}
