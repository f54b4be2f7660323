import AxonBrainiac
import AxonStreams

/// One frame as the ring or a sink saw it.
struct CollectedFrame: Equatable {
    var arrival: Double
    var deviceTime: Double?
    var counter: UInt64?
    var values: [Double]
}

/// A writer on a bare ring, for decoder tests that look at exactly what reached the ring.
final class FrameCollector {
    let layout = FrameLayout(channelCount: 4)
    let ring: SPSCRing<Double>
    let writer: FrameWriter

    init(capacity: Int = 4096) {
        ring = SPSCRing(capacity: capacity, width: layout.width, overflow: .rejectNewest)
        writer = FrameWriter(ring: ring, layout: layout)
    }

    /// Pops everything buffered.
    func drain() -> [CollectedFrame] {
        var slot = [Double](repeating: 0, count: layout.width)
        var frames: [CollectedFrame] = []
        while slot.withUnsafeMutableBufferPointer({ ring.pop(into: $0) }) == 1 {
            let deviceTime = slot[FrameLayout.deviceTimeLane]
            let counter = slot[FrameLayout.counterLane]
            frames.append(CollectedFrame(
                arrival: slot[FrameLayout.arrivalLane], deviceTime: deviceTime.isNaN ? nil : deviceTime,
                counter: counter.isNaN ? nil : UInt64(counter), values: Array(slot[FrameLayout.headerLanes...])))
        }
        return frames
    }
}

/// A sink that keeps every frame and gap record of a pipeline run.
final class CollectingSink: SampleSink {
    let name = "collect"
    private(set) var frames: [CollectedFrame] = []
    private(set) var gaps: [GapRecord] = []
    /// Frames received before each gap.
    private(set) var gapPositions: [Int] = []
    private(set) var descriptor: StreamDescriptor?

    func open(_ descriptor: StreamDescriptor) throws { self.descriptor = descriptor }

    func write(_ block: SampleBlock) throws {
        var nextGap = 0
        let gapList = Array(block.gaps)
        for frame in 0...block.frameCount {
            while nextGap < gapList.count && gapList[nextGap].beforeFrame == frame {
                gaps.append(gapList[nextGap].gap)
                gapPositions.append(frames.count)
                nextGap += 1
            }
            guard frame < block.frameCount else { break }
            frames.append(CollectedFrame(
                arrival: block.arrivalTime(ofFrame: frame), deviceTime: block.deviceTime(ofFrame: frame),
                counter: block.counter(ofFrame: frame), values: Array(block.values(ofFrame: frame))))
        }
    }

    func close() throws {}
}

/// 2023-11-14T22:13:20Z in ms: a realistic device time.
let deviceEpoch: UInt64 = 1_700_000_000_000

func header(order: UInt16 = 1, counter: UInt32 = 0, time: UInt64 = deviceEpoch) -> BrainiacNotificationHeader {
    BrainiacNotificationHeader(hardwareOrderNumber: order, counter: counter, timeMilliseconds: time)
}

/// `samples × 4` values that are exact multiples of 0.05 µV, distinct per sample and channel.
func exactValues(samples: Int, offset: Int = 0) -> [Double] {
    (0..<(samples * 4)).map { Double(($0 + offset) * 137 - 2000) / 20 }
}

func hexBytes(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}
