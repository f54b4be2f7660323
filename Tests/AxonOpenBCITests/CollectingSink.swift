import AxonStreams
import Synchronization

/// A sink that keeps every frame's timestamp, counter and values and every gap record with its position,
/// readable from the test's thread.
final class CollectingSink: SampleSink, @unchecked Sendable {
    // Sendable invariant: all state is behind the mutex; the pipeline's consumer thread writes, the test reads.
    struct Contents {
        var timestamps: [Double] = []
        var values: [[Double]] = []
        var gaps: [GapRecord] = []
        var gapPositions: [Int] = []
    }

    let name = "collect"
    private let contents = Mutex(Contents())

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        contents.withLock { state in
            for gap in block.gaps {
                state.gaps.append(gap.gap)
                state.gapPositions.append(state.timestamps.count + gap.beforeFrame)
            }
            for frame in 0..<block.frameCount {
                state.timestamps.append(block.timestamp(ofFrame: frame))
                state.values.append(Array(block.values(ofFrame: frame)))
            }
        }
    }

    func close() throws {}

    var snapshot: Contents { contents.withLock { $0 } }
}
