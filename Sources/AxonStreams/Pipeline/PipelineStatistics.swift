/// Timing percentiles of one pipeline stage, in seconds.
public struct StageTiming: Sendable, Hashable {
    /// The stage ("timeline", a processor's or sink's name, or "latency" for push → sinks).
    public var name: String
    /// Calls measured (batches; frames for "latency").
    public var count: Int
    /// Median, seconds.
    public var p50: Double
    /// 90th percentile, seconds.
    public var p90: Double
    /// 99th percentile, seconds.
    public var p99: Double
    /// Maximum, seconds.
    public var max: Double
}

/// A snapshot of a pipeline's live statistics.
///
/// Counts are in frames (samples of all channels at one instant). `received = delivered + dropped + buffered`
/// at every moment up to the ring's in-flight batch.
public struct PipelineStatistics: Sendable, Hashable {
    /// Seconds since the pipeline started.
    public var elapsed: Double
    /// Frames the producer offered.
    public var received: Int
    /// Frames handed to the sinks.
    public var delivered: Int
    /// Frames lost to ring overflow (oldest dropped + newest rejected).
    public var dropped: Int
    /// Gap records emitted (device counter gaps and overflow).
    public var gapRecords: Int
    /// Frames reported missing by gap records.
    public var missingFrames: Int
    /// Frames buffered in the ring right now.
    public var occupancy: Int
    /// The most frames buffered at once.
    public var peakOccupancy: Int
    /// Ring capacity in frames.
    public var capacity: Int
    /// Push → sinks latency per frame, as an upper bound: each frame counts with the wait of the oldest frame of
    /// the batch it was delivered in.
    public var latency: StageTiming
    /// Processing time per batch of each stage, in pipeline order.
    public var stages: [StageTiming]
    /// Stages that failed and were taken out, with their errors.
    public var failures: [PipelineFailure]

    /// Delivered frames per second since the start.
    public var deliveredRate: Double { elapsed > 0 ? Double(delivered) / elapsed : 0 }
}
