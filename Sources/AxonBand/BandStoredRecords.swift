import AxonEventStore
import AxonRecording

/// One band's records as an ``AxonEventStore/EventStore`` holds them, per kind, each list oldest first: what
/// ``BandRecordStore`` stored, read back without registering a stream.
///
///     for band in try BandStoredRecords.all(in: EventStore(path: "axon-events.sqlite")) {
///         print(band.device, band.heartRate.count)
///     }
///
/// Threading: a value type; share freely.
public struct BandStoredRecords: Sendable {
    /// The band's name as in its source id (`band-<device>`).
    public var device: String
    /// Today's totals, one per sport and day.
    public var today: [StoredEvent<BandTodayTotals>] = []
    /// Whole-day totals of earlier days.
    public var day: [StoredEvent<BandDayTotals>] = []
    /// Sport sessions.
    public var sport: [StoredEvent<BandSportSession>] = []
    /// Sleep segments.
    public var sleep: [StoredEvent<BandSleepSegment>] = []
    /// Hours of per-minute heart rate.
    public var heartRate: [StoredEvent<BandHourlyHeartRate>] = []
    /// Entries of the supported-sports list (rows of the earlier `axon-band-1` list layout are left out: they hold
    /// no entry).
    public var supportedSports: [StoredEvent<BandSupportedSport>] = []
    /// Presses of the take-picture button.
    public var takePicture: [StoredEvent<BandButtonEvent>] = []
    /// Presses of the search-phone button.
    public var searchPhone: [StoredEvent<BandButtonEvent>] = []

    /// Creates an empty set for a band.
    public init(device: String) { self.device = device }

    /// How many records of `kind` it holds.
    public func count(_ kind: BandRecordKind) -> Int {
        switch kind {
        case .today: today.count
        case .day: day.count
        case .sport: sport.count
        case .sleep: sleep.count
        case .heartRate: heartRate.count
        case .supportedSports: supportedSports.count
        case .takePicture: takePicture.count
        case .searchPhone: searchPhone.count
        }
    }

    /// Whether it holds no record at all.
    public var isEmpty: Bool { BandRecordKind.allCases.allSatisfy { count($0) == 0 } }

    /// Every band in `store` (every source id `band-…` with a record stream), by device name, with the records of
    /// `kinds`.
    ///
    /// Threading: any thread; reads committed snapshots.
    /// - Throws: ``AxonEventStore/EventStoreError``, ``AxonEventStore/EventStoreError/decodingFailed(type:deviceRecordID:cause:)``
    ///   when a stored payload is not its kind's type.
    public static func all(
        in store: EventStore, kinds: Set<BandRecordKind> = Set(BandRecordKind.allCases)
    ) throws(EventStoreError) -> [BandStoredRecords] {
        let kindByName = Dictionary(uniqueKeysWithValues: BandRecordKind.allCases.map { ($0.streamName, $0) })
        var bands: [String: BandStoredRecords] = [:]
        // Schedules share the band's source id but are settings, not records: only the kinds' streams are read.
        for stream in try store.streams() where stream.handle.sourceID.hasPrefix("band-") {
            guard let kind = kindByName[stream.handle.name] else { continue }
            let device = String(stream.handle.sourceID.dropFirst("band-".count))
            var band = bands[device] ?? BandStoredRecords(device: device)
            if kinds.contains(kind) { try band.read(kind, from: stream.handle, in: store) }
            bands[device] = band
        }
        return bands.values.sorted { $0.device < $1.device }
    }

    private mutating func read(_ kind: BandRecordKind, from handle: StreamHandle, in store: EventStore)
        throws(EventStoreError)
    {
        switch kind {
        case .today: today = try store.events(in: handle, as: BandTodayTotals.self)
        case .day: day = try store.events(in: handle, as: BandDayTotals.self)
        case .sport: sport = try store.events(in: handle, as: BandSportSession.self)
        case .sleep: sleep = try store.events(in: handle, as: BandSleepSegment.self)
        case .heartRate: heartRate = try store.events(in: handle, as: BandHourlyHeartRate.self)
        case .supportedSports:
            supportedSports = try store.events(in: handle, as: SupportedSportRow.self).compactMap { row in
                row.payload.entry.map {
                    StoredEvent(
                        deviceRecordID: row.deviceRecordID, deviceTime: row.deviceTime, hostTime: row.hostTime,
                        payload: $0)
                }
            }
        case .takePicture: takePicture = try store.events(in: handle, as: BandButtonEvent.self)
        case .searchPhone: searchPhone = try store.events(in: handle, as: BandButtonEvent.self)
        }
    }
}
