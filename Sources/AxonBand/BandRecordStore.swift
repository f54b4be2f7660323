import AxonEventStore
import AxonRecording
import AxonStreams
import Foundation

/// A band's once-only records in the durable ``AxonEventStore/EventStore``: one event stream per record kind
/// (``BandRecordKind/streamName``), source id `band-<device>`, each record keyed by its identity
/// (``BandRecordContent/identity(today:)``) so a record sent again is stored once.
///
///     let store = try BandRecordStore(store: EventStore(path: "band.sqlite"), device: "C0:FF:EE:00:00:10")
///     let outcome = try store.insert(record, today: today)   // durable on return: now acknowledge it
///
/// Threading: `Sendable`; any thread. Each insert is one write transaction and one `fsync`.
public final class BandRecordStore: Sendable {
    /// The event store.
    public let store: EventStore
    /// Source i d.
    public let sourceID: String
    /// Time zone.
    public let timeZone: TimeZone
    private let handles: [BandRecordKind: StreamHandle]

    /// Registers (or finds) the band's streams.
    ///
    /// - Throws: ``AxonEventStore/EventStoreError`` from registration.
    public init(store: EventStore, device: String, timeZone: TimeZone = .current) throws(EventStoreError) {
        self.store = store
        self.sourceID = "band-\(device)"
        self.timeZone = timeZone
        var handles: [BandRecordKind: StreamHandle] = [:]
        for kind in BandRecordKind.allCases {
            // Streams registered under axon-band-1 take the new descriptor; their rows stay and still decode.
            handles[kind] = try store.register(Self.descriptor(kind, sourceID: sourceID), ifChanged: .replace)
        }
        self.handles = handles
    }

    /// The handle of a kind's stream.
    public func handle(_ kind: BandRecordKind) -> StreamHandle { handles[kind]! }

    /// How many records each stream holds.
    ///
    /// Threading: any thread; reads a snapshot.
    public func counts() throws(EventStoreError) -> [BandRecordKind: Int] {
        var counts: [BandRecordKind: Int] = [:]
        for kind in BandRecordKind.allCases { counts[kind] = try store.count(in: handle(kind)) }
        return counts
    }

    /// The band's supported-sports list as stored, with the band's names and units: every entry it sent, in its
    /// order; `nil` while the store holds no complete list.
    ///
    /// Threading: any thread; reads a snapshot.
    /// - Throws: ``AxonEventStore/EventStoreError``.
    ///
    /// A list stored under `axon-band-1` (one row of sport codes, without the band's names and units) is left out:
    /// it is not an entry of this kind, and the next sync stores the list again.
    public func supportedSports() throws(EventStoreError) -> BandSupportedSports? {
        let rows = try store.events(in: handle(.supportedSports), as: SupportedSportRow.self)
        return BandSupportedSports(assembling: rows.compactMap(\.payload.entry))
    }

    /// Today's totals as stored for `today` (the host's date), the newest per sport, in the order they arrived.
    ///
    /// Threading: any thread; reads a snapshot.
    /// - Throws: ``AxonEventStore/EventStoreError``.
    public func todayTotals(today: BandDate) throws(EventStoreError) -> [BandTodayTotals] {
        let prefix = "today/\(today)/"
        var newest: [BandTodayTotals] = []
        for event in try store.events(in: handle(.today), as: BandTodayTotals.self)
        where event.deviceRecordID.hasPrefix(prefix) {
            newest.removeAll { $0.sport == event.payload.sport }
            newest.append(event.payload)
        }
        return newest
    }

    /// Stores a record durably; when this returns the record may be acknowledged to the band.
    ///
    /// - Parameter today: the host's date, which today's totals belong to.
    /// - Throws: ``AxonEventStore/EventStoreError``; then nothing was stored and nothing may be acknowledged.
    @discardableResult
    public func insert(_ record: BandRecord, today: BandDate) throws(EventStoreError) -> InsertOutcome {
        let content = record.content
        let id = content.identity(today: today)
        let time = content.deviceTime(today: today, timeZone: timeZone)
        let stream = handle(content.kind)
        switch content {
        case .today(let p): return try store.insert(stream, deviceRecordID: id, deviceTime: time, payload: p)
        case .day(let p): return try store.insert(stream, deviceRecordID: id, deviceTime: time, payload: p)
        case .sport(let p): return try store.insert(stream, deviceRecordID: id, deviceTime: time, payload: p)
        case .sleep(let p): return try store.insert(stream, deviceRecordID: id, deviceTime: time, payload: p)
        case .heartRate(let p): return try store.insert(stream, deviceRecordID: id, deviceTime: time, payload: p)
        case .supportedSport(let p): return try store.insert(stream, deviceRecordID: id, deviceTime: time, payload: p)
        case .takePicture(let p), .searchPhone(let p):
            return try store.insert(stream, deviceRecordID: id, deviceTime: time, payload: p)
        }
    }

    /// The descriptor of a kind's stream: irregular events.
    public static func descriptor(_ kind: BandRecordKind, sourceID: String) -> StreamDescriptor {
        let contentType: StreamContentType =
            switch kind {
            case .today, .day, .sport: .activity
            case .sleep: .sleep
            case .heartRate: .heartRate
            case .supportedSports, .takePicture, .searchPhone: .status
            }
        let channels: [ChannelInfo] =
            switch kind {
            case .today, .day, .sport:
                [
                    ChannelInfo(label: "steps", unit: "steps"), ChannelInfo(label: "calories", unit: "kcal"),
                    ChannelInfo(label: "distance", unit: "m"),
                ]
            case .sleep: [ChannelInfo(label: "sleep type", unit: "")]
            case .heartRate: [ChannelInfo(label: "heart rate", unit: "bpm")]
            case .supportedSports, .takePicture, .searchPhone: []
            }
        return StreamDescriptor(
            name: kind.streamName, contentType: contentType, channels: channels, nominalRate: 0, format: .event,
            sourceID: sourceID, metadata: ["protocol": BandFrame.protocolLabel])
    }
}

/// A stored supported-sports row of either framing: an `axon-band-2` entry, or an `axon-band-1` list (codes only),
/// which has no entry.
struct SupportedSportRow: Codable, Sendable {
    var entry: BandSupportedSport?

    init(from decoder: any Decoder) throws {
        entry = try? BandSupportedSport(from: decoder)
        if entry == nil {
            // Not an entry: it must be the earlier layout, or the row is damaged and says so.
            struct EarlierList: Decodable { var sports: [BandSport], maximumActive: Int }
            _ = try EarlierList(from: decoder)
        }
    }

    func encode(to encoder: any Encoder) throws { try entry.encode(to: encoder) }
}
