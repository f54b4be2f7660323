import AxonStreams

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
