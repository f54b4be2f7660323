import AxonBluetooth
import AxonDevices
import AxonPolar
import AxonRecording
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// A real ECG through bytes: the mock bluetoothd's `polar` kind streams `datasets/mitdb-208-ecg` as PMD frames and
/// Heart Rate Measurements on a private bus; BlueZTransport → PolarSource → pipeline → EDF+, compared sample by sample.
@Suite(
    .enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized
)
struct PolarOverBluetoothTests {
    static let address = "C0:FF:EE:00:00:50"
    static let name = "Polar H10 0A3B5C7D"
    static let dataset = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("datasets/mitdb-208-ecg")
    static let ecgPath = dataset.appendingPathComponent("ecg-130hz-uv.csv").path
    static let rrPath = dataset.appendingPathComponent("rr.csv").path

    static func device(_ options: String) -> String {
        "polar,\(address),\(name),csv=\(ecgPath),rr=\(rrPath)" + options
    }

    /// The fixture's ECG column in µV.
    static func ecg() throws -> [Double] {
        try String(contentsOfFile: ecgPath, encoding: .utf8).split(separator: "\n").dropFirst().map {
            try #require(Double($0))
        }
    }

    /// The fixture's RR intervals in ms, in beat order.
    static func rr() throws -> [Double] {
        try String(contentsOfFile: rrPath, encoding: .utf8).split(separator: "\n").dropFirst().map {
            try #require(Double($0.split(separator: ",")[1]))
        }
    }

    /// The mock's accelerometer sample k at `rate` (kinds/polar.py `acc_sample`), in mG.
    static func accelerometer(_ k: Int64, rate: Double) -> [Double] {
        [(100 * sin(2 * Double.pi * 0.25 * Double(k) / rate)).rounded(), -Double(k % 50), 1000]
    }

    @Test("60 s of ECG within 1 µV sample for sample, lost frames as gaps of 73 samples, ACC and RR as sent")
    func roundTrip() async throws {
        let ecg = try Self.ecg()
        #expect(ecg.count == 9100)
        // The strap's clock at 4× real time; ECG frames 10 and 20–21 of the stream are lost on the radio.
        let bed = try BlueZTestBed(devices: [Self.device(",speed=4,drop=10+20-21")])
        defer { bed.stop() }
        let run = try await PolarRun(bed: bed)
        let source = run.source
        let collected = Task {
            var samples: [PolarAuxiliarySample] = []
            for await sample in source.auxiliary { samples.append(sample) }
            return samples
        }
        try run.pipeline.start()
        let done = try waitUntil(seconds: 60, interval: 0.02, onTimeout: .returnFalse) {
            source.state().statistics.ecgSamples >= 60 * 130
        }
        run.stop()
        #expect(done)
        let auxiliary = await collected.value
        let state = source.state()
        #expect(state.features == [0x0F, 0x05, 0x00])
        #expect(state.statistics.rejected == 0 && state.malformedResponses == 0)
        #expect(state.statistics.missingECGSamples == 3 * 73)
        let contents = run.collect.snapshot
        #expect(contents.gaps.map(\.missingCount) == [73, 146])
        #expect(contents.gaps.allSatisfy { $0.cause == .deviceCounter })
        #expect(contents.gapPositions == [10 * 73, 19 * 73])
        #expect(contents.counters.first == 0)
        var worst = 0.0
        for (frame, counter) in contents.counters.enumerated() {
            worst = max(worst, abs(contents.values[frame][0] - ecg[Int(counter) % ecg.count]))
        }
        print("Polar round trip: \(contents.values.count) ECG samples compared, worst difference \(worst) µV")
        #expect(contents.values.count >= 60 * 130)
        #expect(worst == 0)
        let commands = try await bed.stats(Self.address)["commands"]?.stringValue ?? ""
        #expect(commands.hasPrefix("02000001820001010e00 02020001c8000101100002010800"))

        // The EDF+ file: gaps annotated and filled, every other sample within 1 µV of the recording.
        let file = try EDFFileReader(keepsCompleteRecords: false).read(path: run.edfPath)
        #expect(file.channelLabels == ["ECG"] && file.sampleRate == 130)
        let gapTexts = file.markers.compactMap(\.text).filter { $0.hasPrefix("gap:") }
        #expect(gapTexts == ["gap: 73 samples (deviceCounter)", "gap: 146 samples (deviceCounter)"])
        let lost = Set((10 * 73..<11 * 73).map { $0 } + (20 * 73..<22 * 73).map { $0 })
        var worstInFile = 0.0
        var compared = 0
        // The file's frames: the samples received and the gaps' fill (then the last record's padding).
        let written = contents.values.count + 3 * 73
        #expect(file.frameCount >= written)
        for frame in 0..<min(file.frameCount, written) where !lost.contains(frame) {
            let d = abs(file.value(frame: frame, channel: 0) - ecg[frame % ecg.count])
            worstInFile = max(worstInFile, d)
            compared += 1
        }
        print("Polar EDF+: \(compared) samples compared, worst difference \(worstInFile) µV")
        #expect(compared >= 60 * 130 - 3 * 73)
        #expect(worstInFile <= 1)

        // The accelerometer: 200 Hz in 36-sample notifications, every value as the mock made it, none lost.
        let acc = auxiliary.filter { $0.stream == .accelerometer }
        #expect(acc.count > 100 && acc.allSatisfy { $0.frames.count == 36 })
        #expect(acc.first?.firstSampleIndex == 0)
        var next: Int64 = 0
        var accOK = true
        for sample in acc {
            accOK = accOK && sample.firstSampleIndex == next
            for (i, frame) in sample.frames.enumerated() where frame != Self.accelerometer(next + Int64(i), rate: 200) {
                accOK = false
            }
            next += Int64(sample.frames.count)
        }
        #expect(accOK)

        // RR intervals: the recording's, in order, as 1/1024 s units.
        let rr = auxiliary.filter { $0.stream == .rrInterval }.flatMap(\.frames).map { $0[0] }
        let expected = try Self.rr().map { ($0 * 1.024).rounded() / 1.024 }
        let offset = (0...5).first { (o: Int) -> Bool in
            guard rr.count + o <= expected.count else { return false }
            return zip(rr, expected[o...]).allSatisfy { abs($0 - $1) < 1e-9 }
        }
        print(
            "Polar RR: \(rr.count) intervals received, equal to the recording's from beat \(offset.map(String.init) ?? "none")"
        )
        #expect(rr.count >= 20)
        #expect(offset != nil)
        let bpm = auxiliary.filter { $0.stream == .heartRate }.map { $0.frames[0][0] }
        #expect(!bpm.isEmpty && bpm.allSatisfy { (30...250).contains($0) })
        #expect(state.heartRateRejected == 0)
    }

    @Test("a link loss: streaming again after the strap returns, the outage one linkLoss gap of the strap's samples")
    func linkLoss() async throws {
        let bed = try BlueZTestBed(devices: [Self.device("")])
        defer { bed.stop() }
        let run = try await PolarRun(bed: bed)
        try run.pipeline.start()
        try await waitUntil(seconds: 30, interval: 0.02) { run.source.state().statistics.ecgSamples >= 2 * 73 }
        _ = try await bed.control("LinkLoss", [.string(Self.address), .double(2)])
        let before = run.source.state().statistics.ecgSamples
        let resumed = try await waitUntil(seconds: 30, interval: 0.02, onTimeout: .returnFalse) {
            run.source.state().statistics.ecgSamples >= before + 3 * 73
        }
        run.stop()
        #expect(resumed)
        let state = run.source.state()
        let commands = try await bed.stats(Self.address)["commands"]?.stringValue ?? ""
        print("Polar link loss: \(state.linkLosses) losses, \(state.startsSent) starts, commands \(commands)")
        #expect(state.linkLosses == 1 && state.startsSent == 2)
        let gaps = run.collect.snapshot.gaps
        #expect(gaps.count == 1 && gaps.first?.cause == .linkLoss)
        // 2 s out of range plus the reconnection, at 130 Hz.
        let missing = gaps.first?.missingCount ?? 0
        print("Polar link loss: gap of \(missing) samples")
        #expect((2 * 130...6 * 130).contains(missing))
    }
}

/// One Polar run over the bed's bus into a collecting sink and an EDF+ file.
final class PolarRun: @unchecked Sendable {
    // Sendable invariant: immutable after init; collections are locked.
    let central: BluetoothCentral
    let source: PolarSource
    let collect = CollectingSink()
    let pipeline: StreamPipeline
    let edfPath: String

    init(bed: BlueZTestBed) async throws {
        edfPath = FileManager.default.temporaryDirectory.appendingPathComponent("axon-polar-\(UUID()).edf").path
        central = try await BluetoothCentral.open(bus: .address(bed.address))
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: PolarOverBluetoothTests.name,
                discovery: DiscoveryFilter(serviceUUIDs: [PolarGATTProfile.heartRateService]), connectTimeout: 5,
                openTimeout: 15))
        source = try PolarSource(transport: transport)
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
