/// A registered event stream of an ``EventStore``, as ``EventStore/register(_:ifChanged:)`` returns it. Pass it
/// to the store's inserts and queries.
///
/// A stream is identified by its descriptor's `sourceID` and `name` together, so one device can publish several
/// event streams (a band's sleep segments and its step counts).
///
/// Threading: a value type; share freely.
public struct StreamHandle: Sendable, Hashable {
    /// The stream's row id in the store's `streams` table.
    public let id: Int64
    /// The descriptor's source id.
    public let sourceID: String
    /// The descriptor's name.
    public let name: String
    /// The SQLite table holding this stream's records (`events_<id>_<name and source id, sanitized>`).
    public let tableName: String
}
