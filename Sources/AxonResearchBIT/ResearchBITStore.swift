import AxonEventStore
import AxonRecording
import AxonStreams
import Foundation

/// ResearchBIT data in the durable ``AxonEventStore/EventStore``: each device's summary events in a stream
/// `Summary events` of source `researchbit-<store key>` (``ResearchBITDevice/storeKey``: the address the device was
/// first remembered at), keyed by the event's own identifier (so an event sent again is stored once), and the
/// identities of devices found by scans in `Known devices` (source `researchbit`), so a later fetch needs no scan.
///
/// Threading: `Sendable`; any thread. Each insert is one write transaction and one `fsync`.
public final class ResearchBITStore: Sendable {
    /// The event store.
    public let store: EventStore
    private let known: StreamHandle

    /// Creates a value from its fields.
    public init(store: EventStore) throws(EventStoreError) {
        self.store = store
        known = try store.register(
            StreamDescriptor(
                name: "Known devices", contentType: .status, channels: [], nominalRate: 0, format: .event,
                sourceID: "researchbit"))
    }

    /// The summary-event stream of the device whose store key is `address` (registered on first use).
    public func events(of address: String) throws(EventStoreError) -> StreamHandle {
        try store.register(
            StreamDescriptor(
                name: "Summary events", contentType: "ResearchBITSummary",
                channels: [ChannelInfo(label: "value", unit: "")], nominalRate: 0, format: .event,
                sourceID: "researchbit-\(address)", metadata: ["protocol": "axon-researchbit-1"]))
    }

    /// Stores one event durably; when this returns it may be acknowledged.
    @discardableResult
    public func insert(_ event: SummaryEvent, device address: String) throws(EventStoreError) -> InsertOutcome {
        try store.insert(
            events(of: address), deviceRecordID: event.id.uuidString, deviceTime: Double(event.wakeupTime),
            payload: event)
    }

    /// Every stored event of the device whose store key is `address`, by wake-up time.
    public func storedEvents(of address: String) throws(EventStoreError) -> [SummaryEvent] {
        try store.events(in: events(of: address), from: nil, to: nil, limit: nil, as: SummaryEvent.self).map(\.payload)
    }

    /// Remembers a device found by a scan: its name, address, kind, address kind and bond under its
    /// ``ResearchBITDevice/storeKey`` (battery and data flag are not identity). Nothing is written when that is
    /// what is remembered already; a change (a new name, the identity address after bonding) is a new revision,
    /// and the newest revision is the device.
    public func remember(_ device: ResearchBITDevice) throws(EventStoreError) {
        var identity = device
        identity.batteryPercentage = nil
        identity.dataIsAvailable = false
        identity.rssi = nil
        identity.lastSyncTime = nil
        let key = device.storeKey.uppercased()
        let revisions = try store.events(in: known, as: ResearchBITDevice.self).filter {
            $0.payload.storeKey.uppercased() == key
        }
        if revisions.last?.payload == identity { return }
        try store.insert(
            known, deviceRecordID: revisions.isEmpty ? key : "\(key)/\(revisions.count + 1)", payload: identity)
    }

    /// A remembered device by address, store key or name (addresses case-insensitive), with its last sync time,
    /// or `nil`. Several devices with that name (one sensor remembered again at a new private address): the one
    /// remembered most recently.
    public func knownDevice(_ selector: String) throws(EventStoreError) -> ResearchBITDevice? {
        guard
            var device = try knownDevices().last(where: {
                $0.address.caseInsensitiveCompare(selector) == .orderedSame
                    || $0.storeKey.caseInsensitiveCompare(selector) == .orderedSame || $0.name == selector
            })
        else { return nil }
        device.lastSyncTime = try lastSyncTime(of: device.storeKey)
        return device
    }

    /// The sync stream of a device: one event per completed fetch (registered on first use).
    func syncs(of address: String) throws(EventStoreError) -> StreamHandle {
        try store.register(
            StreamDescriptor(
                name: "Syncs", contentType: .status, channels: [], nominalRate: 0, format: .event,
                sourceID: "researchbit-\(address)"))
    }

    /// Records that every event of the device (store key `address`) is in the store as of `time` (a fetch
    /// completed).
    public func recordSync(of address: String, at time: Date) throws(EventStoreError) {
        let seconds = time.timeIntervalSince1970
        try store.insert(
            syncs(of: address), deviceRecordID: "sync/\(Int64((seconds * 1000).rounded()))", deviceTime: seconds,
            payload: SyncRecord(time: seconds))
    }

    /// When the data of the device with store key `address` was last fetched completely (the SDK's `lastSyncTime`),
    /// `nil` if never.
    public func lastSyncTime(of address: String) throws(EventStoreError) -> Date? {
        try store.events(in: syncs(of: address), as: SyncRecord.self).last.map {
            Date(timeIntervalSince1970: $0.payload.time)
        }
    }

    /// Every remembered device (the newest revision of each), in the order first remembered.
    public func knownDevices() throws(EventStoreError) -> [ResearchBITDevice] {
        var order: [String] = []
        var newest: [String: ResearchBITDevice] = [:]
        for row in try store.events(in: known, as: ResearchBITDevice.self) {
            let key = row.payload.storeKey.uppercased()
            if newest[key] == nil { order.append(key) }
            newest[key] = row.payload
        }
        return order.compactMap { newest[$0] }
    }
}

/// One completed fetch of a device.
struct SyncRecord: Codable, Sendable {
    /// Unix seconds.
    var time: Double
}
