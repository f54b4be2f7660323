import AxonStreams
import Synchronization

/// A sink for tests: keeps every frame's values, dejittered timestamp, device counter and arrival time, every gap
/// record with the frame position it stands before, the descriptor and whether it was closed.
///
/// Threading: the pipeline's consumer thread writes; the test reads ``snapshot`` from any thread (all state is
/// behind a mutex).
public final class CollectingSink: SampleSink, @unchecked Sendable {
    // Sendable invariant: all state is behind the mutex.
    /// What the sink has received.
    public struct Contents: Sendable {
        /// Each frame's values.
        public var values: [[Double]] = []
        /// Each frame's dejittered timestamp.
        public var timestamps: [Double] = []
        /// Each frame's device counter (0 when it had none).
        public var counters: [UInt64] = []
        /// Each frame's host arrival time.
        public var arrivals: [Double] = []
        /// The gap records in stream order.
        public var gaps: [GapRecord] = []
        /// For each gap record, the index of the frame it stands before.
        public var gapPositions: [Int] = []
        /// Whether `close` was called.
        public var closed = false
        /// The stream's descriptor, once opened.
        public var descriptor: StreamDescriptor?
    }

    /// `collect`.
    public let name = "collect"
    private let contents = Mutex(Contents())

    /// An empty sink.
    public init() {}

    /// Keeps the descriptor.
    public func open(_ descriptor: StreamDescriptor) throws { contents.withLock { $0.descriptor = descriptor } }

    /// Keeps the block's frames and gaps.
    public func write(_ block: SampleBlock) throws {
        contents.withLock { state in
            for gap in block.gaps {
                state.gaps.append(gap.gap)
                state.gapPositions.append(state.values.count + gap.beforeFrame)
            }
            for frame in 0..<block.frameCount {
                state.values.append(Array(block.values(ofFrame: frame)))
                state.timestamps.append(block.timestamp(ofFrame: frame))
                state.counters.append(block.counter(ofFrame: frame) ?? 0)
                state.arrivals.append(block.arrivalTime(ofFrame: frame))
            }
        }
    }

    /// Marks the sink closed.
    public func close() throws { contents.withLock { $0.closed = true } }

    /// A copy of everything received so far.
    public var snapshot: Contents { contents.withLock { $0 } }

    /// The arrival time of the first frame that arrived after `time`.
    public func firstArrival(after time: Double) -> Double? {
        contents.withLock { $0.arrivals.first { $0 > time } }
    }
}

extension CollectingSink.Contents {
    /// Mean and standard deviation of the spacing of consecutive timestamps, leaving out the spans across a gap.
    public var timestampSpacing: (mean: Double, std: Double) {
        let skipped = Set(gapPositions)
        let spacings = timestamps.indices.dropFirst().filter { !skipped.contains($0) }
            .map { timestamps[$0] - timestamps[$0 - 1] }
        let mean = spacings.reduce(0, +) / Double(max(1, spacings.count))
        let variance = spacings.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(1, spacings.count))
        return (mean, variance.squareRoot())
    }
}
