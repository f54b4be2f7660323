import AxonEEG
import AxonStreams
import Foundation
import Testing

@testable import AxonFleet

/// The raw-frame message format and the engine checkpoints, without a broker.
@Suite struct FrameBatchTests {
    static let descriptor = FleetSimulatedDevice(index: 3).descriptor

    static func batch(first: UInt64 = 250, frames: Int = 4) -> FrameBatch {
        var rows: [Double] = []
        for frame in 0..<frames {
            rows += [FleetSimulatedDevice.startTime + Double(frame) / 250, Double(frame), 1.5, -2.25, .pi, 1e-300]
        }
        return FrameBatch(
            device: "dev-1", epoch: 1_700_000_000_000, firstFrame: first, descriptor: descriptor, rows: rows,
            gaps: [.init(beforeFrame: 2, missing: 5, cause: .deviceCounter)])
    }

    static func message(_ batch: FrameBatch, headers: [String: String]? = nil, body: [UInt8]? = nil, subject: String? = nil)
        -> NATSMessage
    {
        NATSMessage(
            subject: subject ?? batch.subject, data: body ?? batch.body(), headers: headers ?? batch.headers(),
            streamSequence: 1, timestamp: 0)
    }

    @Test func roundTripsEveryBit() throws {
        let original = Self.batch()
        let decoded = try FrameBatch.decode(Self.message(original))
        #expect(decoded == original)
        #expect(decoded.frameCount == 4)
        #expect(original.messageID == "dev-1.1700000000000.250")
        #expect(original.subject == "axon.raw.\(FleetSubjects.partition(of: "dev-1")).dev-1")
    }

    @Test func noGapsMeansNoGapHeader() {
        var batch = Self.batch()
        batch.gaps = []
        #expect(batch.headers()["Axon-Gaps"] == nil)
    }

    static let badCases: [(String, @Sendable (FrameBatch) -> NATSMessage)] = [
        ("no headers", { message($0, headers: [:]) }),
        ("device not the subject's", { message($0, subject: "axon.raw.1.other") }),
        ("short body", { message($0, body: Array($0.body().dropLast(8))) }),
        ("descriptor not JSON", { var h = $0.headers(); h["Axon-Descriptor"] = "{oops"; return message($0, headers: h) }),
        ("too many frames", { var h = $0.headers(); h["Axon-Frames"] = "100000"; return message($0, headers: h) }),
        ("gap outside", { var h = $0.headers(); h["Axon-Gaps"] = "9:1:deviceCounter"; return message($0, headers: h) }),
        ("unknown gap cause", { var h = $0.headers(); h["Axon-Gaps"] = "1:1:gremlins"; return message($0, headers: h) }),
        ("time not finite", { batch in
            var copy = batch
            copy.rows[0] = .nan
            return message(batch, body: copy.body())
        }),
    ]

    @Test(arguments: 0..<badCases.count) func rejectsBadMessages(_ index: Int) {
        let (name, make) = Self.badCases[index]
        #expect(throws: FleetError.self, "\(name)") { try FrameBatch.decode(make(Self.batch())) }
    }

    @Test func anUndecodableDescriptorKeepsTheDecodersError() {
        var headers = Self.batch().headers()
        headers["Axon-Descriptor"] = "{oops"
        do {
            _ = try FrameBatch.decode(Self.message(Self.batch(), headers: headers))
            Issue.record("decoded a descriptor that is not JSON")
        } catch .json(let what, let cause) {
            #expect(what.contains("Axon-Descriptor"))
            #expect(cause is DecodingError, "\(cause)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func rejectsBadDeviceIDs() throws {
        for id in ["", "a.b", "a b", "dev*", String(repeating: "x", count: 65), "é"] {
            #expect(throws: FleetError.invalidDeviceID(id)) { try FleetSubjects.validate(deviceID: id) }
        }
        try FleetSubjects.validate(deviceID: "Headset_07-b")
    }

    /// Stopping a device's engine anywhere, checkpointing it through JSON and resuming it in a new engine gives the
    /// same spectra and zones, bit for bit, as running straight through (a lossy device, across its baseline).
    @Test(arguments: [3_000, 5_007, 6_250])
    func checkpointResumesExactly(splitFrame: Int) throws {
        let device = FleetSimulatedDevice(index: 7)
        let settings = FleetEngineSettings(baselineSeconds: 10, indicatorSeconds: 5)
        let straight = try device.offlineResults(seconds: 40, settings: settings)
        #expect(straight.spectra.count == 39 && straight.zones.count >= 5)

        var engine = try FleetDeviceEngine(descriptor: device.descriptor, settings: settings)
        var spectra: [[Double]] = []
        var zones: [[Double]] = []
        var cursor = FleetSimulatedDevice.Cursor(device: device, seconds: 40)
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: 4)
        defer { values.deallocate() }
        values.initialize(repeating: 0)
        var delivered = 0
        while let frame = cursor.next(into: values) {
            let gaps: [FrameBatch.Gap] = frame.lostBefore > 0 ? [.init(beforeFrame: 0, missing: frame.lostBefore, cause: .deviceCounter)] : []
            engine.feed(rows: [frame.time, Double(frame.sample)] + Array(values), gaps: gaps) { kind, row in
                if kind == .spectrum { spectra.append(Array(row)) } else { zones.append(Array(row)) }
            }
            delivered += 1
            if delivered == splitFrame {
                let json = try FleetJSON.encoder().encode(engine.processor.snapshot())
                let snapshot = try FleetJSON.decoder().decode(EEGProcessor.Snapshot.self, from: json)
                engine = try FleetDeviceEngine(descriptor: device.descriptor, settings: settings, snapshot: snapshot)
            }
        }
        #expect(spectra.count == straight.spectra.count)
        #expect(zones.count == straight.zones.count)
        for (a, b) in zip(spectra, straight.spectra) { #expect(FleetResults.relativeDifference(a, b) == 0) }
        for (a, b) in zip(zones, straight.zones) { #expect(FleetResults.relativeDifference(a, b) == 0) }
    }
}
