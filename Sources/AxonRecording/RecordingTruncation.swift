/// A recording's file ended in the middle of a row (a crash or a copy cut short while it was written).
///
/// The readers keep every complete row before the cut and describe the dropped tail here rather than failing:
/// the data before it is intact and should not be lost because of it.
///
/// Threading: a value type; share freely.
public struct RecordingTruncation: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number of the incomplete row.
    public var line: Int
    /// Offset of the incomplete row's first byte in the file.
    public var byteOffset: Int
    /// Bytes dropped (the incomplete row, without a line terminator).
    public var droppedBytes: Int
    /// Why the row could not be read.
    public var reason: String

    /// Creates a truncation record.
    public init(line: Int, byteOffset: Int, droppedBytes: Int, reason: String) {
        self.line = line
        self.byteOffset = byteOffset
        self.droppedBytes = droppedBytes
        self.reason = reason
    }

    /// A sentence for people.
    public var description: String {
        "file truncated: line \(line) (byte \(byteOffset), \(droppedBytes) bytes) is an incomplete row and was "
            + "dropped: \(reason)"
    }
}
