/// A stage that passes a stream's first `limit` frames and drops every later one, so a recording of a live device
/// for N seconds holds exactly N × rate samples however its packets fall (the last packet is cut). Placed first, the
/// stages after it, the sinks and the pipeline's `delivered` count see the limited stream.
///
///     let pipeline = StreamPipeline(source: device, processors: [SampleCountLimit(limit: 30_000)], sinks: [file])
///
/// Threading: a ``SampleProcessor``, called on the pipeline's consumer thread; allocates nothing per block.
public final class SampleCountLimit: SampleProcessor {
    /// `sample-count-limit`.
    public let name = "sample-count-limit"
    /// Frames passed at most.
    public let limit: Int
    /// Frames passed so far.
    public private(set) var passed = 0

    /// A stage passing the first `limit` frames.
    public init(limit: Int) {
        precondition(limit >= 0, "a limit of frames is at least 0")
        self.limit = limit
    }

    /// Nothing to prepare.
    public func open(_ descriptor: StreamDescriptor) throws {}

    /// Cuts the block after the frames still allowed (all of them while the limit is far, none once it is reached).
    public func process(_ block: SampleBlock) {
        block.keepFirst(limit - passed)
        passed += block.frameCount
    }

    /// Nothing to release.
    public func close() {}
}
