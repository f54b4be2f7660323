/// A sink that keeps running per-channel statistics and the stream's time span: what the console demo prints,
/// and a cheap way for tests to see exactly what flowed.
///
/// Threading contract: written on the pipeline's consumer thread; read ``summary`` after the pipeline has
/// finished (`stop()` / `waitUntilFinished()` return only after the consumer thread has ended).
public final class SummarySink: SampleSink {
    /// What flowed through the sink.
    public struct Summary: Sendable, Hashable {
        /// Frames received.
        public var frames = 0
        /// Gap records received.
        public var gapRecords = 0
        /// Frames reported missing by those records.
        public var missingFrames = 0
        /// Timestamp of the first and last frame (host monotonic seconds).
        public var firstTimestamp = Double.nan
        /// Timestamp of the last frame.
        public var lastTimestamp = Double.nan
        /// Whether every timestamp was greater than the one before.
        public var timestampsIncreasing = true
        /// Per channel: mean.
        public var means: [Double] = []
        /// Per channel: root mean square.
        public var rms: [Double] = []
        /// Per channel: minimum.
        public var minimums: [Double] = []
        /// Per channel: maximum.
        public var maximums: [Double] = []
    }

    /// A short name for statistics.
    public let name: String
    private var sums: [Double] = []
    private var squares: [Double] = []
    private var state = Summary()

    /// Creates a summary sink.
    public init(name: String = "summary") { self.name = name }

    /// Sizes the per-channel accumulators.
    public func open(_ descriptor: StreamDescriptor) throws {
        let n = descriptor.channelCount
        sums = Array(repeating: 0, count: n)
        squares = Array(repeating: 0, count: n)
        state = Summary()
        state.minimums = Array(repeating: .infinity, count: n)
        state.maximums = Array(repeating: -.infinity, count: n)
    }

    /// Accumulates one block.
    public func write(_ block: SampleBlock) throws {
        for positioned in block.gaps {
            state.gapRecords += 1
            state.missingFrames += positioned.gap.missingCount
        }
        for frame in 0..<block.frameCount {
            let time = block.timestamp(ofFrame: frame)
            if state.frames == 0 { state.firstTimestamp = time }
            else if !(time > state.lastTimestamp) { state.timestampsIncreasing = false }
            state.lastTimestamp = time
            state.frames += 1
            for channel in 0..<sums.count {
                let value = block.value(ofFrame: frame, channel: channel)
                sums[channel] += value
                squares[channel] += value * value
                state.minimums[channel] = min(state.minimums[channel], value)
                state.maximums[channel] = max(state.maximums[channel], value)
            }
        }
    }

    /// Nothing to flush.
    public func close() throws {}

    /// What flowed so far (read after the pipeline finished).
    public var summary: Summary {
        var result = state
        let n = Double(max(state.frames, 1))
        result.means = sums.map { $0 / n }
        result.rms = squares.map { ($0 / n).squareRoot() }
        return result
    }
}
