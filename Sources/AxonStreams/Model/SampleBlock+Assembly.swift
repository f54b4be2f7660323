extension SampleBlock {
    /// Empties the block so a consumer outside a pipeline (a network source, a fleet worker) can fill it: write
    /// each frame's row into ``rows`` with ``setFrameCount(_:)`` and add the gaps with ``addGap(_:beforeFrame:)``.
    ///
    /// Threading: the block's single owner thread. O(1), no allocation.
    public func clear() { reset(frameCount: 0) }

    /// Declares the first `count` rows of ``rows`` filled. `count` must be within ``capacity``.
    public func setFrameCount(_ count: Int) {
        precondition((0...capacity).contains(count), "a block holds at most its capacity in frames")
        frameCount = count
    }

    /// Records `gap` before frame `frame` (in stream order with the other gaps).
    ///
    /// - Returns: `false` (nothing recorded) when the block already holds its maximum of `2 × capacity + 2` gaps
    ///   or `frame` is beyond the capacity.
    @discardableResult
    public func addGap(_ gap: GapRecord, beforeFrame frame: Int) -> Bool {
        guard gapCount < 2 * capacity + 2, (0...capacity).contains(frame) else { return false }
        appendGap(gap, beforeFrame: frame)
        return true
    }
}
