/// What a ``MuseDecoder`` has seen.
///
/// Threading: a value type; share freely.
public struct MuseDecoderStatistics: Sendable, Hashable {
    /// EEG notifications accepted.
    public var notifications = 0
    /// Packet indices with every channel received, each 12 frames.
    public var packets = 0
    /// Frames written.
    public var frames = 0
    /// Packet indices skipped between consecutive complete packets (lost on the radio, or during an outage).
    public var missingPackets = 0
    /// Packet indices that lost one of their channels' notifications: dropped whole (the stream shows a gap).
    public var incompletePackets = 0
    /// Notifications rejected (wrong length, unknown characteristic).
    public var rejected = 0

    /// Empty statistics.
    public init() {}
}
