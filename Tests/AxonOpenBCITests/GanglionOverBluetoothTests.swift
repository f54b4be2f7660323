import AxonBluetooth
import AxonDevices
import AxonOpenBCI
import AxonRecording
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// A simulated Ganglion on the mock bluetoothd streams four channels of the shared OpenBCI recording as raw and
/// 19-bit delta packets; BlueZTransport → GanglionSource → pipeline for 60 s without a lost packet.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make deps)"), .serialized)
struct GanglionOverBluetoothTests {
    static let address = "C0:FF:EE:00:00:30"
    static let recordingPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path

    /// A Ganglion source for the bed's `Ganglion-0030`, through BlueZ on the bed's bus.
    static func connect(_ bed: BlueZTestBed) async throws -> (BluetoothCentral, GanglionSource) {
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: "Ganglion-0030", discovery: DiscoveryFilter(serviceUUIDs: ["fe84"]), connectTimeout: 5,
                openTimeout: 15))
        return (central, GanglionSource(transport: transport))
    }

    @Test("60 s at 200 Hz through BlueZ: no packet lost, every sample rebuilt from the deltas")
    func sixtySeconds() async throws {
        let recording = try RecordingReader.read(path: Self.recordingPath)
        let bed = try BlueZTestBed(devices: ["ganglion,\(Self.address),Ganglion-0030,recording=\(Self.recordingPath)"])
        defer { bed.stop() }
        let (central, source) = try await Self.connect(bed)
        let collect = CollectingSink()
        let pipeline = StreamPipeline(
            source: source, sinks: [collect], configuration: .init(timeline: source.timelineConfiguration))
        try pipeline.start()
        try await Task.sleep(for: .seconds(60))
        // Out of range: nothing more is sent; then wait until everything sent has arrived.
        _ = try await bed.control("SetInRange", [.string(Self.address), .boolean(false)])
        let sent = try await bed.stats(Self.address)["sent"]?.integerValue ?? -1
        _ = try await waitUntil(seconds: 10) { source.state().packets >= sent }
        pipeline.stop()
        central.close()

        let state = source.state()
        let contents = collect.snapshot
        print(
            "Ganglion over BlueZ: \(sent) notifications sent, \(state.packets) decoded, \(state.frames) frames, "
                + "\(state.lostPackets) lost")
        #expect(state.packets == sent)
        #expect(state.lostPackets == 0 && state.rejected == 0 && state.packetsWithoutReference == 0)
        #expect(state.frames == 2 * sent - 1)
        #expect(state.frames >= 59 * 200)
        #expect(contents.gaps.isEmpty)
        // `s` went to a headset already out of range: only `b` was written.
        #expect(state.commandsSent == ["b"])
        // Frame i is row i of EXG2, EXG3, EXG6, EXG7 minus their first row (the simulator's offset), within a count
        // except just after the few steps larger than a 19-bit delta carries.
        let scale = GanglionPacket.microvoltsPerCount
        var within = 0
        var compared = 0
        for (frame, values) in contents.values.enumerated() {
            for (channel, column) in [2, 3, 6, 7].enumerated() {
                let expected =
                    recording.value(frame: frame, channel: column) - recording.value(frame: 0, channel: column)
                if abs(values[channel] - expected) <= 1.5 * scale + 0.005 { within += 1 }
                compared += 1
            }
        }
        print("Ganglion values: \(within) of \(compared) within a count (+ the recording's 0.01 µV rounding)")
        #expect(Double(within) >= 0.995 * Double(compared))
    }

    @Test("impedance check: z starts packets 201–205, their ASCII values are reported, Z stops them")
    func impedanceCheck() async throws {
        let bed = try BlueZTestBed(devices: [
            "ganglion,\(Self.address),Ganglion-0030,recording=\(Self.recordingPath),speed=4,impedance=12+15+9+31+5"
        ])
        defer { bed.stop() }
        let (central, source) = try await Self.connect(bed)
        let pipeline = StreamPipeline(
            source: source, sinks: [SummarySink()], configuration: .init(timeline: source.timelineConfiguration))
        try pipeline.start()
        #expect(try await waitUntil(seconds: 15) { source.state().frames > 200 })
        #expect(source.state().impedanceReadings == 0)
        source.checkImpedance(true)
        #expect(try await waitUntil(seconds: 15) { source.state().impedance.allSatisfy { $0 != nil } })
        source.checkImpedance(false)
        #expect(try await waitUntil(seconds: 5) { source.state().commandsSent.count == 3 })
        // After `Z` reached the board, no more readings: wait for a few hundred more packets and compare.
        let sentAfterStop = try await bed.stats(Self.address)["impedance_sent"]?.integerValue ?? -1
        let packets = source.state().packets
        #expect(try await waitUntil(seconds: 10) { source.state().packets > packets + 200 })
        pipeline.stop()
        central.close()
        let state = source.state()
        print(
            "Ganglion impedance: \(state.impedance.map { $0.map(String.init) ?? "-" }), \(state.impedanceReadings) readings"
        )
        #expect(state.impedance == [12, 15, 9, 31, 5])
        #expect(state.commandsSent == ["b", "z", "Z", "s"])
        #expect(state.impedanceReadings == sentAfterStop)
        #expect(state.rejected == 0 && state.lostPackets == 0)
    }
}
