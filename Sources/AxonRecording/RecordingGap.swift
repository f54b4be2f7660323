import AxonStreams

/// Samples missing from a recording between two of its frames: the stream framework's ``AxonStreams/GapRecord`` (what a
/// live source's timeline reports) at its place in the recording.
///
/// Threading: a value type; share freely.
public struct RecordingGap: Sendable, Hashable {
    /// The first frame after the missing samples.
    public var beforeFrame: Int
    /// What is missing: how many samples, why, and when (the times they would have had, in the recording's time).
    public var gap: GapRecord

    /// Creates a gap before `beforeFrame`.
    public init(beforeFrame: Int, gap: GapRecord) {
        self.beforeFrame = beforeFrame
        self.gap = gap
    }
}

extension Recording {
    /// Samples missing before `frame` (in all gaps before it, at the nominal rate). O(gaps).
    public func missingSamples(before frame: Int) -> Int {
        gaps.reduce(0) { $0 + ($1.beforeFrame <= frame ? $1.gap.missingCount : 0) }
    }
}
