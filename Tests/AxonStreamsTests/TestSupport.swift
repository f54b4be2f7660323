@testable import AxonStreams

/// A sink that keeps copies of everything it receives, for tests that compare frames one by one.
final class RecordingSink: SampleSink {
    struct Frame: Equatable {
        var sequence: Double
        var counter: UInt64?
        var timestamp: Double
        var values: [Double]
    }

    let name: String
    private(set) var frames: [Frame] = []
    private(set) var gaps: [GapRecord] = []
    /// Frames received before each gap (its position in the stream).
    private(set) var gapPositions: [Int] = []
    private(set) var closed = false
    private let failAfterBlocks: Int?
    private var blocks = 0

    struct Failure: Error {}

    init(name: String = "recording", failAfterBlocks: Int? = nil) {
        self.name = name
        self.failAfterBlocks = failAfterBlocks
    }

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        blocks += 1
        if let limit = failAfterBlocks, blocks > limit { throw Failure() }
        var nextGap = 0
        let gapList = Array(block.gaps)
        for frame in 0...block.frameCount {
            while nextGap < gapList.count && gapList[nextGap].beforeFrame == frame {
                gaps.append(gapList[nextGap].gap)
                gapPositions.append(frames.count)
                nextGap += 1
            }
            guard frame < block.frameCount else { break }
            frames.append(Frame(
                sequence: block.sequence(ofFrame: frame), counter: block.counter(ofFrame: frame),
                timestamp: block.timestamp(ofFrame: frame), values: Array(block.values(ofFrame: frame))))
        }
    }

    func close() throws { closed = true }
}

func descriptor(channels: Int = 4, rate: Double = 250) -> StreamDescriptor {
    StreamDescriptor(
        name: "test", contentType: .eeg, channels: (0..<channels).map { ChannelInfo(label: "c\($0)", unit: "µV") },
        nominalRate: rate, format: .float32, sourceID: "test-0")
}

/// Sorted absolute errors → the given percentiles, for reports.
func percentiles(_ values: [Double], _ qs: [Double]) -> [Double] {
    let sorted = values.sorted()
    return qs.map { q in sorted[min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.down)))] }
}
