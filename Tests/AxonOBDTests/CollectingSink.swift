import AxonStreams
import Synchronization

/// A sink that keeps every frame's timestamp and values and every gap record, readable from the test's thread.
final class CollectingSink: SampleSink, @unchecked Sendable {
    // Sendable invariant: all state is behind the mutex; the pipeline's consumer thread writes, the test reads.
    struct Contents {
        var timestamps: [Double] = []
        var values: [[Double]] = []
        var gaps: [GapRecord] = []
        var gapPositions: [Int] = []
        var closed = false
        var descriptor: StreamDescriptor?
    }

    let name = "collect"
    let contents = Mutex(Contents())

    func open(_ descriptor: StreamDescriptor) throws { contents.withLock { $0.descriptor = descriptor } }

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

    func close() throws { contents.withLock { $0.closed = true } }

    var snapshot: Contents { contents.withLock { $0 } }
}
