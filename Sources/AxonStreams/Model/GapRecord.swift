/// An explicit record that samples are missing: how many, and from when to when.
///
/// Nothing in a stream is ever silently missing: a device counter that jumps, a ring that overflowed or a
/// link that went down each produce one of these, in stream order, before the first sample after the hole.
///
/// Threading: a value type; share freely.
public struct GapRecord: Sendable, Hashable {
    /// Why samples are missing.
    public enum Cause: String, Sendable, Hashable, CaseIterable {
        /// The device's counter skipped values: lost on the device or on the link.
        case deviceCounter
        /// The ring was full and dropped them (see ``OverflowPolicy``).
        case overflow
        /// The transport lost the device (link loss, reconnect).
        case linkLoss
    }

    /// Why the samples are missing.
    public var cause: Cause
    /// Number of missing samples.
    public var missingCount: Int
    /// Estimated time of the first missing sample (host monotonic seconds).
    public var start: Double
    /// Estimated time of the last missing sample (host monotonic seconds).
    public var end: Double

    /// Creates a gap record.
    public init(cause: Cause, missingCount: Int, start: Double, end: Double) {
        self.cause = cause
        self.missingCount = missingCount
        self.start = start
        self.end = end
    }
}
