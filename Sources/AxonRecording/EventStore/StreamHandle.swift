import AxonStreams

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

/// A stream as it is stored: its handle, its descriptor and how often that descriptor was replaced.
///
/// Threading: a value type; share freely.
public struct StoredStream: Sendable, Hashable {
    /// The handle for inserts and queries.
    public let handle: StreamHandle
    /// The descriptor stored for the stream (the latest one).
    public let descriptor: StreamDescriptor
    /// 1 for the descriptor first registered, +1 for every replacement (earlier ones are kept in
    /// `stream_descriptor_history`).
    public let revision: Int
}

/// What ``EventStore/register(_:ifChanged:)`` does when the stream is registered with a different descriptor.
///
/// Threading: a value type; share freely.
public enum DescriptorChangePolicy: Sendable, Hashable {
    /// Throw ``EventStoreError/descriptorChanged(sourceID:name:)`` and keep the stored descriptor.
    case reject
    /// Store the new descriptor (the old one goes to the history table) and keep every stored record.
    case replace
}

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
