/// A batch of frames of one regular numeric stream, in contiguous storage: what processors and sinks receive.
///
/// Frames are rows of ``FrameLayout/width`` doubles (header lanes, then channel values); the block is allocated
/// once per pipeline and reused for every batch. Gap records that precede a frame travel with the block in
/// ``gaps``, so a sink sees samples and holes in stream order without the block being split.
///
/// Threading contract: owned by the pipeline's consumer thread; processors and sinks may read and modify it
/// only during the call that hands it to them, and must not keep references to its storage.
public final class SampleBlock {
    /// The stream's layout.
    public let layout: FrameLayout
    /// Frames the block can hold.
    public let capacity: Int
    /// Frames currently held.
    public internal(set) var frameCount: Int = 0
    /// Row storage: `frameCount × layout.width` doubles or more, row-major — the block's own `capacity` rows, or,
    /// while the pipeline hands a batch over in place, the ring's slots.
    public private(set) var rows: UnsafeMutableBufferPointer<Double>
    /// The block's own storage, `capacity × layout.width` doubles.
    @usableFromInline let ownRows: UnsafeMutableBufferPointer<Double>
    @usableFromInline let gapStorage: UnsafeMutableBufferPointer<PositionedGap>
    /// Number of gap records in this block.
    public internal(set) var gapCount: Int = 0

    /// A gap record placed before a frame of the block.
    public struct PositionedGap: Sendable, Hashable {
        /// The gap occurred just before this frame index (equal to `frameCount` when it closes the block).
        public var beforeFrame: Int
        /// The gap.
        public var gap: GapRecord
    }

    /// Allocates a block for `capacity` frames.
    public init(layout: FrameLayout, capacity: Int) {
        precondition(capacity >= 1)
        self.layout = layout
        self.capacity = capacity
        self.ownRows = .allocate(capacity: capacity * layout.width)
        ownRows.initialize(repeating: 0)
        self.rows = ownRows
        // At most two gaps (overflow + device counter) can precede each frame.
        self.gapStorage = .allocate(capacity: 2 * capacity + 2)
        gapStorage.initialize(
            repeating: PositionedGap(beforeFrame: 0, gap: GapRecord(cause: .overflow, missingCount: 0, start: 0, end: 0)))
    }

    deinit {
        ownRows.deallocate()
        gapStorage.deallocate()
    }

    /// The gap records of this block, in stream order.
    public var gaps: UnsafeBufferPointer<PositionedGap> {
        UnsafeBufferPointer(rebasing: gapStorage[0..<gapCount])
    }

    @usableFromInline
    func appendGap(_ gap: GapRecord, beforeFrame frame: Int) {
        gapStorage[gapCount] = PositionedGap(beforeFrame: frame, gap: gap)
        gapCount += 1
    }

    @usableFromInline
    func reset(frameCount: Int) {
        self.frameCount = frameCount
        gapCount = 0
    }

    /// Makes the block's frames `frameCount` rows that live elsewhere (a ring's slots lent in place), with no gaps;
    /// ``useOwnRows()`` returns to the block's storage.
    func lend(rows first: UnsafeMutablePointer<Double>, frameCount: Int) {
        precondition(frameCount <= capacity, "a block holds at most its capacity in frames")
        rows = UnsafeMutableBufferPointer(start: first, count: frameCount * layout.width)
        reset(frameCount: frameCount)
    }

    /// Returns the block to its own storage, holding no frames and no gaps.
    func useOwnRows() {
        rows = ownRows
        reset(frameCount: 0)
    }

    /// Keeps the first `count` frames and the gap records before them, dropping the rest: how a stage ends a stream
    /// at a number of samples. Allocates nothing.
    public func keepFirst(_ count: Int) {
        guard count < frameCount else { return }
        let kept = max(0, count)
        var gaps = 0
        while gaps < gapCount, gapStorage[gaps].beforeFrame < kept { gaps += 1 }
        frameCount = kept
        gapCount = gaps
    }

    /// Lane `lane` of frame `frame`.
    @inlinable
    public func lane(_ lane: Int, ofFrame frame: Int) -> Double { rows[frame * layout.width + lane] }

    /// The producer sequence number of a frame.
    @inlinable
    public func sequence(ofFrame frame: Int) -> Double { lane(FrameLayout.sequenceLane, ofFrame: frame) }

    /// Host monotonic arrival time of a frame, seconds.
    @inlinable
    public func arrivalTime(ofFrame frame: Int) -> Double { lane(FrameLayout.arrivalLane, ofFrame: frame) }

    /// The device's timestamp of a frame, if it gave one.
    @inlinable
    public func deviceTime(ofFrame frame: Int) -> Double? {
        let value = lane(FrameLayout.deviceTimeLane, ofFrame: frame)
        return value.isNaN ? nil : value
    }

    /// The device's counter of a frame, if it gave one.
    @inlinable
    public func counter(ofFrame frame: Int) -> UInt64? {
        let value = lane(FrameLayout.counterLane, ofFrame: frame)
        return value.isNaN ? nil : UInt64(value)
    }

    /// The dejittered host time of a frame (monotonic seconds), as set by the pipeline's clock stage.
    @inlinable
    public func timestamp(ofFrame frame: Int) -> Double { lane(FrameLayout.timestampLane, ofFrame: frame) }

    /// Sets the dejittered host time of a frame.
    @inlinable
    public func setTimestamp(_ time: Double, ofFrame frame: Int) {
        rows[frame * layout.width + FrameLayout.timestampLane] = time
    }

    /// The value of one channel in one frame.
    @inlinable
    public func value(ofFrame frame: Int, channel: Int) -> Double {
        rows[frame * layout.width + FrameLayout.headerLanes + channel]
    }

    /// The channel values of one frame, in place (valid only during the call).
    @inlinable
    public func values(ofFrame frame: Int) -> UnsafeMutableBufferPointer<Double> {
        UnsafeMutableBufferPointer(
            rebasing: rows[(frame * layout.width + FrameLayout.headerLanes)..<((frame + 1) * layout.width)])
    }
}
