/// What ``EventStore/insert(_:record:)`` did with one record. Every outcome means the device's record is safely
/// stored (the transaction committed with `synchronous = FULL`), so an adapter may acknowledge it to the device.
///
/// Threading: a value type; share freely.
public enum InsertOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The record was new and is now stored.
    case inserted
    /// A record with the same device record id, device time and payload was already stored; nothing changed.
    case duplicate
    /// A record with the same device record id but a different payload or device time was already stored. The
    /// stored one is kept as it is (first write wins) and the re-sent one is kept beside it in the store's
    /// conflict log (``EventStore/conflicts(in:)``), so nothing the device sent is lost.
    case conflict

    /// `inserted`, `duplicate` or `conflict`.
    public var description: String {
        switch self {
        case .inserted: "inserted"
        case .duplicate: "duplicate"
        case .conflict: "conflict"
        }
    }
}
