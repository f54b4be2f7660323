// AxonView — the real-time side of the view: a sink that copies frames and gap records into a ring.

import AxonStreams

/// The sink a run adds to its pipeline to be seen in the view. On the pipeline's consumer thread it copies each
/// frame's channel values and each gap record into an ``AxonStreams/SPSCRing`` (drop-oldest) that the hub's own thread
/// drains; it never waits, locks or allocates, whatever the viewers do.
///
///     let hub = LiveViewHub(configuration: engineConfiguration)
///     let session = try EEGSession(source: source, configuration: engineConfiguration, sinks: [hub.sink])
///
/// Ring rows are `4 + channels` doubles: lane 0 the kind (0 frame, 1 gap), then for a gap its missing count and
/// cause, and for a frame the channel values from lane 4.
///
/// Threading: `open`, `write` and `close` on the pipeline's consumer thread (the ring's single producer).
public final class LiveViewSink: SampleSink, Sendable {
    /// "view".
    public let name = "view"
    let ring: SPSCRing<Double>
    let channelCount: Int

    static let frameKind = 0.0
    static let gapKind = 1.0
    static let valueLane = 4

    init(channelCount: Int, capacity: Int) {
        self.channelCount = channelCount
        ring = SPSCRing(capacity: SPSCRing<Double>.powerOfTwo(atLeast: capacity), width: 4 + channelCount,
                        overflow: .dropOldest)
    }

    /// Checks the stream matches the hub's channel count.
    public func open(_ descriptor: StreamDescriptor) throws {
        guard descriptor.channelCount == channelCount else {
            throw LiveViewError.channelCountMismatch(expected: channelCount, actual: descriptor.channelCount)
        }
    }

    /// Copies the block's frames and gap records, in stream order, into the ring. Allocation- and lock-free.
    public func write(_ block: SampleBlock) throws {
        let gaps = block.gaps
        var nextGap = 0
        for frame in 0..<block.frameCount {
            while nextGap < gaps.count, gaps[nextGap].beforeFrame <= frame {
                push(gap: gaps[nextGap].gap)
                nextGap += 1
            }
            let values = block.values(ofFrame: frame)
            ring.pushSlot { slot in
                slot[0] = Self.frameKind
                slot[1] = 0
                slot[2] = 0
                slot[3] = 0
                for channel in 0..<channelCount { slot[Self.valueLane + channel] = values[channel] }
            }
        }
        while nextGap < gaps.count {
            push(gap: gaps[nextGap].gap)
            nextGap += 1
        }
    }

    /// Marks the end of the stream for the hub.
    public func close() throws { ring.closeProducer() }

    private func push(gap: GapRecord) {
        let cause = Double(GapRecord.Cause.allCases.firstIndex(of: gap.cause) ?? 0)
        ring.pushSlot { slot in
            slot[0] = Self.gapKind
            slot[1] = Double(gap.missingCount)
            slot[2] = cause
            slot[3] = gap.end - gap.start
            for channel in 0..<channelCount { slot[Self.valueLane + channel] = .nan }
        }
    }
}
