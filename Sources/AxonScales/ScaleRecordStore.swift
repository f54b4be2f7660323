import AxonEventStore
import AxonRecording
import AxonStreams

/// A scale's records in the durable ``AxonEventStore/EventStore``: one stream per device, each record keyed by
/// `<device>/<time>`, so a record sent again (a repeated or resumed memory transfer) is stored once.
///
///     let records = try ScaleRecordStore(store: EventStore(path: "scale.sqlite"), device: "HS5-0001", model: .hs5)
///     let outcome = try records.store(ScaleRecord(time: 1_763_800_000, weightKg: 71.4))   // .inserted
///
/// Threading: `Sendable`; call from any thread. Each ``store(_:)`` blocks until the record is on disk.
public final class ScaleRecordStore: Sendable {
    /// The event store the records go to.
    public let store: EventStore
    /// The device name in record ids.
    public let device: String
    /// The device's record stream.
    public let handle: StreamHandle

    /// The descriptor of a scale's record stream.
    public static func descriptor(device: String, model: ScaleModel) -> StreamDescriptor {
        StreamDescriptor(
            name: "Scale records", contentType: "Weight", channels: [ChannelInfo(label: "weight", unit: "kg")],
            nominalRate: 0, format: .event, sourceID: "scale-\(device)", metadata: ["model": model.rawValue])
    }

    /// Registers (or finds) the device's record stream.
    ///
    /// - Throws: ``ScaleError/store(_:)``.
    public init(store: EventStore, device: String, model: ScaleModel) throws(ScaleError) {
        self.store = store
        self.device = device
        do throws(EventStoreError) {
            handle = try store.register(Self.descriptor(device: device, model: model), ifChanged: .replace)
        } catch {
            throw .store(error)
        }
    }

    /// The record id of `record`: `<device>/<time>`.
    public func recordID(_ record: ScaleRecord) -> String { "\(device)/\(record.time)" }

    /// Stores `record` durably; `.duplicate` when it was stored before.
    ///
    /// - Throws: ``ScaleError/store(_:)``; then nothing was stored.
    @discardableResult
    public func store(_ record: ScaleRecord) throws(ScaleError) -> InsertOutcome {
        try insert(record, id: recordID(record))
    }

    /// The record id of a live weight from a scale without a clock (an HS3 over its serial port):
    /// `<device>/<time>/<weight in 0.1 kg>`, so two different weights in one second are two records.
    public func liveRecordID(_ record: ScaleRecord) -> String {
        "\(device)/\(record.time)/\(Int((record.weightKg * 10).rounded()))"
    }

    /// Stores a live weight under ``liveRecordID(_:)``; `.duplicate` when it was stored before.
    ///
    /// - Throws: ``ScaleError/store(_:)``; then nothing was stored.
    @discardableResult
    public func storeLive(_ record: ScaleRecord) throws(ScaleError) -> InsertOutcome {
        try insert(record, id: liveRecordID(record))
    }

    private func insert(_ record: ScaleRecord, id: String) throws(ScaleError) -> InsertOutcome {
        do throws(EventStoreError) {
            return try store.insert(handle, deviceRecordID: id, deviceTime: Double(record.time), payload: record)
        } catch {
            throw .store(error)
        }
    }

    /// How many records are stored for the device.
    public func count() throws(ScaleError) -> Int {
        do throws(EventStoreError) { return try store.count(in: handle) } catch { throw .store(error) }
    }

    /// Every stored record, oldest first.
    public func records() throws(ScaleError) -> [ScaleRecord] {
        do throws(EventStoreError) {
            return try store.events(in: handle, as: ScaleRecord.self).map(\.payload)
        } catch {
            throw .store(error)
        }
    }
}
