/// A re-sent record whose payload or device time differed from the one already stored under its device record
/// id (``InsertOutcome/conflict``): the store keeps both, this one in its conflict log (each distinct content
/// once).
///
/// Threading: a value type; share freely.
public struct EventConflict: Sendable, Hashable {
    /// The device's record id both share.
    public let deviceRecordID: String
    /// The re-sent record's device time.
    public let deviceTime: Double?
    /// When the re-sent record arrived (wall-clock Unix seconds).
    public let hostTime: Double
    /// The re-sent record's payload as stored (JSON text, sorted keys).
    public let payloadJSON: String
}
