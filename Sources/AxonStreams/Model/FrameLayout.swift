/// How one sample of a regular numeric stream (a *frame*: one value per channel plus its times) sits in a
/// slot of an `SPSCRing<Double>` and in a ``SampleBlock``.
///
/// A frame is `width` contiguous `Double`s: five header lanes, then the channel values. Keeping everything in
/// one flat slot means frames move through the ring as one unit, with no per-sample heap object, for any
/// channel count fixed at run time.
///
/// | lane | meaning |
/// |---|---|
/// | 0 `sequence` | producer sequence number: counts every frame offered, so ring overflow shows as a jump |
/// | 1 `arrival` | host monotonic arrival time, seconds |
/// | 2 `deviceTime` | device timestamp, seconds, or NaN when the device gives none |
/// | 3 `counter` | device counter (exact up to 2^53), or NaN when the device gives none |
/// | 4 `timestamp` | dejittered host time, filled in by the pipeline's clock stage (a producer may only mark a link outage there) |
/// | 5… | channel values, in descriptor order, in the channel's unit |
///
/// Threading: a value type; share freely.
public struct FrameLayout: Sendable, Hashable {
    /// Channels per frame.
    public let channelCount: Int

    /// Creates the layout for `channelCount` channels.
    public init(channelCount: Int) {
        precondition(channelCount >= 1, "a frame needs at least one channel")
        self.channelCount = channelCount
    }

    // Computed and inlinable rather than stored: a stored static the compiler does not fold (the marker's -∞) is
    // read through a lazy-initialisation check on every access, inside the consumer's per-frame loops.
    /// Lane of the producer sequence number.
    @inlinable public static var sequenceLane: Int { 0 }
    /// Lane of the host arrival time.
    @inlinable public static var arrivalLane: Int { 1 }
    /// Lane of the device timestamp (NaN if absent).
    @inlinable public static var deviceTimeLane: Int { 2 }
    /// Lane of the device counter (NaN if absent).
    @inlinable public static var counterLane: Int { 3 }
    /// Lane of the dejittered timestamp.
    @inlinable public static var timestampLane: Int { 4 }
    /// What a producer puts in the timestamp lane of the first frame after a link outage
    /// (``FrameWriter/noteLinkLoss()``): the timeline reports the gap before that frame as `.linkLoss` and then
    /// overwrites the lane with the frame's timestamp.
    @inlinable public static var linkLossMarker: Double { -.infinity }
    /// Lanes before the first channel value.
    @inlinable public static var headerLanes: Int { 5 }

    /// Doubles per frame.
    public var width: Int { Self.headerLanes + channelCount }
}
