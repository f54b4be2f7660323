/// What a ``CytonDecoder`` has seen: packets, frames, and every fault it resynchronised after.
///
/// Threading: a value type; share freely.
public struct CytonDecoderStatistics: Sendable, Hashable {
    /// Bytes handed to the decoder.
    public var bytesReceived = 0
    /// Packets accepted (header, footer and framing intact).
    public var packets = 0
    /// Frames produced (one per packet; with a Daisy one per odd/even pair).
    public var frames = 0
    /// Bytes discarded while resynchronising (garbage, truncated packets, packets with a wrong footer).
    public var discardedBytes = 0
    /// Runs of bytes between packets that were no packet at all.
    public var garbageRuns = 0
    /// Packets cut short: a new packet started before 33 bytes.
    public var truncatedPackets = 0
    /// Packets of full length whose last byte was not a footer `0xC0`…`0xC6`.
    public var wrongFooters = 0
    /// Packets missing by the sample numbers (jumps over lost packets; the stream shows them as gap records).
    public var missingPackets = 0
    /// With a Daisy: packets that arrived without their partner (a board packet without the Daisy's, or the reverse).
    public var unpairedPackets = 0
    /// Accelerometer readings (footer `0xC0` packets with non-zero aux bytes).
    public var accelerometerReadings = 0

    /// Every fault the decoder resynchronised after.
    public var faults: Int { garbageRuns + truncatedPackets + wrongFooters }

    /// Empty statistics.
    public init() {}
}
