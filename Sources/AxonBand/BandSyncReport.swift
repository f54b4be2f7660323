import AxonEventStore
import AxonRecording

/// What one ``BandSession/sync()`` did.
///
/// Threading: a value type; share freely.
public struct BandSyncReport: Sendable, Hashable, CustomStringConvertible {
    /// Records stored new, by kind.
    public var inserted: [BandRecordKind: Int] = [:]
    /// Records the store already held (re-sent after a lost acknowledgement or a second band sync), by kind.
    public var duplicates: [BandRecordKind: Int] = [:]
    /// Records whose identity was stored with a different content (kept in the store's conflict log).
    public var conflicts: [BandRecordKind: Int] = [:]
    /// Record notifications received (duplicates included).
    public var recordsReceived = 0
    /// Acknowledgements that could not be written (link down); the band re-sent those records.
    public var acknowledgementsLost = 0
    /// Link losses during the sync.
    public var linkLosses = 0
    /// Malformed notifications (each a ``BandDecodingError``), re-requested from the band.
    public var malformedNotifications = 0
    /// The highest sequence number stored.
    public var lastSequence: UInt32 = 0
    /// Device info.
    public var deviceInfo: BandDeviceInfo?
    /// Battery level in percent.
    public var battery: Int?
    /// Today's totals the band sent in this sync, one per sport (the newest when a sport came twice).
    public var todayTotals: [BandTodayTotals] = []
    /// The band's supported-sports list, when every entry of it arrived in this sync.
    public var supportedSports: BandSupportedSports?

    /// Creates a value from its fields.
    public init() {}

    mutating func count(_ outcome: InsertOutcome, _ kind: BandRecordKind) {
        switch outcome {
        case .inserted: inserted[kind, default: 0] += 1
        case .duplicate: duplicates[kind, default: 0] += 1
        case .conflict: conflicts[kind, default: 0] += 1
        }
    }

    /// Total stored new.
    public var totalInserted: Int { inserted.values.reduce(0, +) }
    /// Total duplicates.
    public var totalDuplicates: Int { duplicates.values.reduce(0, +) }

    /// A sentence for people.
    public var description: String {
        let rows = BandRecordKind.allCases.map { kind in
            "  \(kind.streamName): \(inserted[kind] ?? 0) new, \(duplicates[kind] ?? 0) already stored"
                + ((conflicts[kind] ?? 0) > 0 ? ", \(conflicts[kind]!) conflicting" : "")
        }
        return
            ([
                "\(recordsReceived) records received; \(totalInserted) new, \(totalDuplicates) already stored; "
                    + "\(linkLosses) link losses, \(malformedNotifications) malformed"
            ] + rows + todayTotals.map { "  today: \($0)" }
                + (supportedSports.map { ["  supported sports: \($0)"] } ?? [])).joined(separator: "\n")
    }
}

extension BandTodayTotals: CustomStringConvertible {
    /// A sentence for people: the sport and every total.
    public var description: String {
        "\(sport?.name ?? "sport not recorded (axon-band-1)"): \(steps) steps, \(calories) kcal, \(distance) m, count "
            + (count.map(String.init) ?? "not recorded")
    }
}

extension BandSupportedSports: CustomStringConvertible {
    /// A sentence for people: each sport with the band's name and unit, and the maximum active.
    public var description: String {
        entries.map { "\($0.sport.name) (\($0.name), \($0.unit))" }.joined(separator: ", ")
            + "; at most \(maximumActive) active"
    }
}
