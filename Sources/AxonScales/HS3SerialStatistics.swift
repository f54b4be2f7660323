/// What an HS3 serial stream carried, counted by ``HS3SerialDecoder`` and the session's repeat rule.
///
/// Threading: a value type; share freely.
public struct HS3SerialStatistics: Sendable, Hashable {
    /// Bytes received.
    public var bytes = 0
    /// Weight packets decoded (repeats included).
    public var weightPackets = 0
    /// Time packets seen.
    public var timePackets = 0
    /// Bytes outside any packet that was decoded: garbage, the unpublished body of time packets, packets with an
    /// unknown kind byte, bytes of a packet whose weight was not BCD.
    public var skippedBytes = 0
    /// Packets `A0 09 A6 xx` whose kind byte was neither `28` nor `33`.
    public var unknownPackets = 0
    /// Weight packets whose weight bytes were not BCD (the decoder resynchronised one byte further).
    public var invalidWeights = 0
    /// Weights that repeated the last stored weight within the repeat window and were not stored again.
    public var repeatedWeights = 0
    /// Weights stored (or, without an event store, reported) as new measurements.
    public var newWeights = 0

    /// Creates all counters at zero.
    public init() {}
}
