import AxonBrainiac
import AxonStreams
import Benchmark

/// A decoder, a ring it writes into, and one 10-sample notification in preallocated memory, for
/// `Brainiac.decode.eeg10` and `Brainiac.encode.eeg10`.
///
/// The ring drops its oldest frames, so the measured loop never waits for a consumer: it measures the decode →
/// FrameWriter → ring push path a Bluetooth callback runs for every notification.
final class BrainiacFixture {
    let decoder = BrainiacDecoder()
    let encoder = BrainiacEncoder()
    let writer: FrameWriter
    let header = BrainiacNotificationHeader(hardwareOrderNumber: 1, counter: 0, timeMilliseconds: 1_700_000_000_000)
    let values: UnsafeMutableBufferPointer<Double>
    let bytes: UnsafeMutableRawBufferPointer
    let length: Int

    init() throws {
        let layout = FrameLayout(channelCount: 4)
        writer = FrameWriter(ring: SPSCRing(capacity: 64, width: layout.width, overflow: .dropOldest), layout: layout)
        values = .allocate(capacity: 40)
        for index in values.indices { values.initializeElement(at: index, to: Double(index * 37 % 200) - 100.25) }
        bytes = .allocate(byteCount: BrainiacPacketLayout.maximumNotificationSize, alignment: 8)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        length = try encoder.encodeEEG(header, values: UnsafeBufferPointer(values), into: bytes)
    }

    deinit {
        values.deallocate()
        bytes.deallocate()
    }

    var notification: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<length]) }
}

func registerBrainiacBenchmarks() {
    // One notification = 10 samples × 4 channels: validated, CRC-checked, and 10 frames pushed into the ring.
    Benchmark(
        "Brainiac.decode.eeg10",
        configuration: .init(scalingFactor: .kilo)
    ) { (benchmark: Benchmark, fixture: BrainiacFixture) in
        let notification = fixture.notification
        var samples = 0
        do {
            for index in benchmark.scaledIterations {
                let result = try fixture.decoder.decode(notification, arrivalTime: Double(index), into: fixture.writer)
                if case .eeg(_, let count) = result { samples += count }
            }
        } catch {
            benchmark.error("decode failed: \(error)")
        }
        blackHole(samples)
    } setup: {
        try BrainiacFixture()
    }

    // The simulator's side: 40 values quantised, packed and sealed into a preallocated notification buffer.
    Benchmark(
        "Brainiac.encode.eeg10",
        configuration: .init(scalingFactor: .kilo)
    ) { (benchmark: Benchmark, fixture: BrainiacFixture) in
        let values = UnsafeBufferPointer(fixture.values)
        var total = 0
        do {
            for _ in benchmark.scaledIterations {
                total &+= try fixture.encoder.encodeEEG(fixture.header, values: values, into: fixture.bytes)
            }
        } catch {
            benchmark.error("encode failed: \(error)")
        }
        blackHole(total)
    } setup: {
        try BrainiacFixture()
    }
}
