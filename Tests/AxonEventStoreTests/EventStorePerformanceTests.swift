import AxonStreams
import Foundation
import Testing

@testable import AxonEventStore

/// Insert rates for the notes: printed, not asserted (they depend on the disk's `fsync`). What is asserted is that
/// every record arrived.
@Suite("EventStore: insert rates")
struct EventStorePerformanceTests {
    @Test("inserts per second, one record per transaction and 100 per transaction")
    func insertRates() throws {
        let dir = try EventStoreTemporaryDirectory()
        let store = try EventStore(path: dir.file("rates.sqlite"))
        let stream = try store.register(EventStoreFixtures.scaleDescriptor())
        let clock = ContinuousClock()

        let singles = 1_000
        let singleTime = try clock.measure {
            for i in 0..<singles {
                try store.insert(
                    stream, deviceRecordID: "s\(i)", deviceTime: Double(i),
                    payload: ScaleReading(
                        kg: 70 + Double(i % 100) / 10, impedance: 400 + i % 200))
            }
        }
        let batches = 100
        let batchTime = try clock.measure {
            for b in 0..<batches {
                let batch = (0..<100).map { j in
                    let i = b * 100 + j
                    return StoredEvent(
                        deviceRecordID: "b\(i)", deviceTime: Double(i),
                        payload: ScaleReading(
                            kg: 70 + Double(i % 100) / 10, impedance: 400 + i % 200))
                }
                try store.insert(stream, batch: batch)
            }
        }
        let duplicateTime = try clock.measure {
            for i in 0..<singles {
                try store.insert(
                    stream, deviceRecordID: "s\(i)", deviceTime: Double(i),
                    payload: ScaleReading(
                        kg: 70 + Double(i % 100) / 10, impedance: 400 + i % 200))
            }
        }
        #expect(try store.count(in: stream) == singles + batches * 100)
        func perSecond(_ count: Int, _ duration: Duration) -> Int {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
            return Int((Double(count) / seconds).rounded())
        }
        print(
            "EventStore rates (WAL, synchronous FULL): \(perSecond(singles, singleTime)) inserts/s one per "
                + "transaction, \(perSecond(batches * 100, batchTime)) inserts/s in batches of 100, "
                + "\(perSecond(singles, duplicateTime)) duplicate re-sends/s")
    }
}
