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
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct GanglionOverBluetoothTests {
    static let address = "C0:FF:EE:00:00:30"
    static let recordingPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path

    /// A bed with `Ganglion-0030` streaming the recording, with further `options` (`,speed=4,…`).
    static func bed(_ options: String = "") throws -> BlueZTestBed {
        try BlueZTestBed(devices: ["ganglion,\(address),Ganglion-0030,recording=\(recordingPath)" + options])
    }

    /// A transport to the bed's `Ganglion-0030`, through BlueZ on the bed's bus.
    static func transport(_ bed: BlueZTestBed) async throws -> (BluetoothCentral, BlueZTransport) {
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: "Ganglion-0030", discovery: DiscoveryFilter(serviceUUIDs: ["fe84"]), connectTimeout: 5,
                openTimeout: 15))
        return (central, transport)
    }

    /// A Ganglion source for the bed's `Ganglion-0030`, through BlueZ on the bed's bus.
    static func connect(_ bed: BlueZTestBed) async throws -> (BluetoothCentral, GanglionSource) {
        let (central, transport) = try await transport(bed)
        return (central, GanglionSource(transport: transport))
    }

    @Test("60 s at 200 Hz through BlueZ: no packet lost, every sample rebuilt from the deltas")
    func sixtySeconds() async throws {
        let recording = try RecordingReader.read(path: Self.recordingPath)
        let bed = try Self.bed()
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
        _ = try await waitUntil(seconds: 10, onTimeout: .returnFalse) { source.state().packets >= sent }
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
        let bed = try Self.bed(",speed=4,impedance=12+15+9+31+5")
        defer { bed.stop() }
        let (central, source) = try await Self.connect(bed)
        let pipeline = StreamPipeline(
            source: source, sinks: [SummarySink()], configuration: .init(timeline: source.timelineConfiguration))
        try pipeline.start()
        try await waitUntil(seconds: 15) { source.state().frames > 200 }
        #expect(source.state().impedanceReadings == 0)
        source.checkImpedance(true)
        try await waitUntil(seconds: 15) { source.state().impedance.allSatisfy { $0 != nil } }
        source.checkImpedance(false)
        try await waitUntil(seconds: 5) { source.state().commandsSent.count == 3 }
        // After `Z` reached the board, no more readings: wait for a few hundred more packets and compare.
        let sentAfterStop = try await bed.stats(Self.address)["impedance_sent"]?.integerValue ?? -1
        let packets = source.state().packets
        try await waitUntil(seconds: 10) { source.state().packets > packets + 200 }
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

    @Test("GanglionImpedanceCheck: z without a stream, readings in the firmware's order, z again after a link loss")
    func impedanceCheckAcrossLinkLoss() async throws {
        let bed = try Self.bed(",speed=4,electrodes=5+40+120+900+7.5")
        defer { bed.stop() }
        let (central, transport) = try await Self.transport(bed)
        let check = GanglionImpedanceCheck(transport: transport)
        try await check.start()
        try await waitUntil(seconds: 10) { check.state().readingCount >= 5 }
        #expect(check.state().readings == [10, 80, 240, 1800, 15])
        // The board resets when its connection opens: the check stops until `z` is written again.
        _ = try await bed.control("LinkLoss", [.string(Self.address), .double(1)])
        try await waitUntil(seconds: 5) { check.state().readyEvents >= 2 }
        #expect(await check.resumeIfReconnected())
        let before = check.state().readingCount
        try await waitUntil(seconds: 10) { check.state().readingCount >= before + 5 }
        await check.stop()
        central.close()
        let state = check.state()
        print("impedance check across a link loss: \(state.readingCount) readings, commands \(state.commandsSent)")
        #expect(state.commandsSent == ["z", "z", "Z"])
        #expect(state.dataPackets == 0 && state.rejected == 0)
        #expect(state.electrodes.map { $0?.kiloohms } == [5, 40, 120, 900, 7.5])
    }

    /// The rows of the last full table `axon impedance` printed: channel → (kΩ, result).
    static func lastTable(_ output: String) -> [String: (kiloohms: Double, result: String)] {
        let lines = output.split(separator: "\n").map(String.init)
        guard let start = lines.lastIndex(where: { $0.hasPrefix("round ") }) else { return [:] }
        var rows: [String: (Double, String)] = [:]
        for line in lines[(start + 2)...].prefix(5) {
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 4, let kiloohms = Double(words[1]) else { continue }
            rows[words[0]] = (kiloohms, words[words.count - 1])
        }
        return rows
    }

    @Test("axon impedance ganglion:NAME prints each simulated electrode's kΩ and pass/fail at 100 kΩ, writes z then Z")
    func impedanceCommand() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        // Electrodes in kΩ as the GUI shows them (channels 1-4, reference): the simulated board reports each in
        // series with an equal D_G electrode (2×, rounded to whole kΩ), packets 201-205 every 0.5 s / 4.
        let electrodes = [5.0, 40.0, 120.0, 900.0, 7.5]
        let bed = try Self.bed(",speed=4,electrodes=\(electrodes.map { String($0) }.joined(separator: "+"))")
        defer { bed.stop() }
        let (status, output) = try await AxonExecutable.runOffPool(
            axon, ["impedance", "ganglion:Ganglion-0030", "--bus", bed.address, "--seconds", "4"])
        print(output)
        #expect(status == 0, "\(output)")
        let table = Self.lastTable(output)
        for (index, expected) in electrodes.enumerated() {
            let channel = index == 4 ? "REF" : String(index + 1)
            let row = try #require(table[channel], "no row for \(channel) in \(output)")
            #expect(
                abs(row.kiloohms - expected) <= 0.25, "\(channel): \(row.kiloohms) kΩ printed, \(expected) simulated")
            #expect(row.result == (expected <= 100 ? "pass" : "fail"), "\(channel): \(row.result)")
        }
        #expect(output.contains("failing: 3, 4"), "\(output)")
        // At speed 4 a round takes 1.25 s: at least two full rounds in 4 s.
        #expect(output.contains("round 2 ("), "\(output)")
        let stats = try await bed.stats(Self.address)
        #expect(stats["commands"]?.stringValue == "z Z")
        #expect(stats["checking_impedance"]?.boolValue == false)
        #expect(stats["sent"]?.integerValue == 0, "the check streams no EEG")
    }

    @Test("axon impedance with a Ganglion that is not there: searching, then exit 1 naming what was seen")
    func impedanceCommandWithoutDevice() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let bed = try Self.bed()
        defer { bed.stop() }
        let (status, output) = try await AxonExecutable.runOffPool(
            axon, ["impedance", "ganglion:Nobody", "--bus", bed.address, "--seconds", "3"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("searching for a OpenBCI Ganglion named or at \"Nobody\""), "\(output)")
        #expect(output.contains("no OpenBCI Ganglion named or at \"Nobody\" found in 3 s"), "\(output)")
        #expect(output.contains("Ganglion-0030 (C0:FF:EE:00:00:30, OpenBCI Ganglion)"), "\(output)")
    }
}
