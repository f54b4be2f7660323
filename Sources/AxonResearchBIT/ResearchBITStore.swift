import AxonRecording
import AxonStreams
import Foundation

/// ResearchBIT data in the durable ``AxonRecording/EventStore``: each device's summary events in a stream
/// `Summary events` of source `researchbit-<address>`, keyed by the event's own identifier (so an event sent again
/// is stored once), and the identities of devices found by scans in `Known devices` (source `researchbit`), so a
/// later fetch needs no scan.
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

    /// The summary-event stream of a device (registered on first use).
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

    /// Every stored event of a device, by wake-up time.
    public func storedEvents(of address: String) throws(EventStoreError) -> [SummaryEvent] {
        try store.events(in: events(of: address), from: nil, to: nil, limit: nil, as: SummaryEvent.self).map(\.payload)
    }

    /// Remembers a device found by a scan (its name, address and kind; battery and data flag are not identity).
    public func remember(_ device: ResearchBITDevice) throws(EventStoreError) {
        var identity = device
        identity.batteryPercentage = nil
        identity.dataIsAvailable = false
        identity.rssi = nil
        identity.lastSyncTime = nil
        try store.insert(known, deviceRecordID: device.address.uppercased(), payload: identity)
    }

    /// A remembered device by address or name (case-insensitive), with its last sync time, or `nil`.
    public func knownDevice(_ selector: String) throws(EventStoreError) -> ResearchBITDevice? {
        guard
            var device = try knownDevices().first(where: {
                $0.address.caseInsensitiveCompare(selector) == .orderedSame || $0.name == selector
            })
        else { return nil }
        device.lastSyncTime = try lastSyncTime(of: device.address)
        return device
    }

    /// The sync stream of a device: one event per completed fetch (registered on first use).
    func syncs(of address: String) throws(EventStoreError) -> StreamHandle {
        try store.register(
            StreamDescriptor(
                name: "Syncs", contentType: .status, channels: [], nominalRate: 0, format: .event,
                sourceID: "researchbit-\(address)"))
    }

    /// Records that every event of the device is in the store as of `time` (a fetch completed).
    public func recordSync(of address: String, at time: Date) throws(EventStoreError) {
        let seconds = time.timeIntervalSince1970
        try store.insert(
            syncs(of: address), deviceRecordID: "sync/\(Int64((seconds * 1000).rounded()))", deviceTime: seconds,
            payload: SyncRecord(time: seconds))
    }

    /// When the device's data was last fetched completely (the SDK's `lastSyncTime`), `nil` if never.
    public func lastSyncTime(of address: String) throws(EventStoreError) -> Date? {
        try store.events(in: syncs(of: address), as: SyncRecord.self).last.map {
            Date(timeIntervalSince1970: $0.payload.time)
        }
    }

    /// Every remembered device.
    public func knownDevices() throws(EventStoreError) -> [ResearchBITDevice] {
        try store.events(in: known, from: nil, to: nil, limit: nil, as: ResearchBITDevice.self).map(\.payload)
    }
}

/// One completed fetch of a device.
struct SyncRecord: Codable, Sendable {
    /// Unix seconds.
    var time: Double
}
