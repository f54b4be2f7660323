// AxonC — the last stage of a source's pipeline: every frame and gap record, in stream order, into a ring the
// caller's reading thread empties.

import AxonStreams

/// Hands a pipeline's frames and gap records to the thread that calls `axon_source_read`, through a lock-free
/// single-producer ring (the pipeline's consumer thread produces, the reading thread consumes and sleeps on the
/// ring's eventfd while it is empty).
///
/// A slot is ``width`` doubles: its kind, then for a frame its Unix time, its device counter (NaN without) and the
/// channels' values; for a gap record the times of its first and last missing samples, the count and the cause. When
/// the caller does not read for longer than the ring holds (``capacity`` frames), the newest frames are refused and
/// counted, and the next frame that fits is preceded by a gap record of the refused count: nothing is lost silently.
///
/// Threading: ``write(_:)`` on the pipeline's consumer thread (it allocates nothing and takes no lock); the ring's
/// consumer side on the one reading thread.
final class HandOffSink: SampleSink {
    enum Kind: Double {
        case frame = 0
        case gap = 1
    }

    static let headerLanes = 5
    let name = "axon_source"
    let ring: SPSCRing<Double>
    let channels: Int
    /// Added to the pipeline's monotonic timestamps to make them Unix seconds.
    let wallClockOffset: Double
    /// Frames refused while the ring was full, not yet reported as a gap; and the time of the first of them.
    private var refused = 0
    private var firstRefusedTime = 0.0
    private var lastRefusedTime = 0.0

    /// Slots of the ring: 2¹⁵ frames, two minutes at 250 Hz.
    static let capacity = 1 << 15

    init(channels: Int) {
        self.channels = channels
        wallClockOffset = HostClock.wallClockOffset()
        ring = SPSCRing(capacity: Self.capacity, width: Self.headerLanes + channels, overflow: .rejectNewest, wakeable: true)
    }

    var width: Int { Self.headerLanes + channels }

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        var gapIndex = 0
        let gaps = block.gaps
        for frame in 0..<block.frameCount {
            while gapIndex < gaps.count, gaps[gapIndex].beforeFrame == frame {
                handOff(gaps[gapIndex].gap)
                gapIndex += 1
            }
            handOff(frame: frame, of: block)
        }
        while gapIndex < gaps.count {
            handOff(gaps[gapIndex].gap)
            gapIndex += 1
        }
    }

    /// The frames refused at the end of the stream, when the ring had no room left for their gap record: the
    /// reader reports it once the ring is finished. Written before `closeProducer`, whose releasing store the
    /// reader's `isFinished` acquires, so the reader sees it without a lock.
    private(set) var trailingGap: (start: Double, end: Double, missing: Int)?

    /// The end of the stream: the refused frames' gap (in the ring, or kept for the reader), then wakes a reader
    /// asleep on the ring, which sees it finished once it is empty.
    func close() throws {
        if !flushRefused() { trailingGap = (firstRefusedTime, lastRefusedTime, refused) }
        ring.closeProducer()
    }

    private func handOff(_ gap: GapRecord) {
        guard flushRefused() else {
            refused += gap.missingCount  // reported with the refused frames, as one gap
            lastRefusedTime = gap.end + wallClockOffset
            return
        }
        let stored = ring.pushSlot { slot in
            slot[0] = Kind.gap.rawValue
            slot[1] = gap.start + self.wallClockOffset
            slot[2] = gap.end + self.wallClockOffset
            slot[3] = Double(gap.missingCount)
            slot[4] = Double(GapRecord.Cause.allCases.firstIndex(of: gap.cause) ?? 0)
            for lane in Self.headerLanes..<slot.count { slot[lane] = 0 }
        }
        if !stored { refuse(count: gap.missingCount, time: gap.start + wallClockOffset) }
    }

    private func handOff(frame: Int, of block: SampleBlock) {
        let time = block.timestamp(ofFrame: frame) + wallClockOffset
        guard flushRefused() else {
            refuse(count: 1, time: time)
            return
        }
        let stored = ring.pushSlot { slot in
            slot[0] = Kind.frame.rawValue
            slot[1] = time
            slot[2] = block.counter(ofFrame: frame).map { Double($0) } ?? .nan
            slot[3] = 0
            slot[4] = 0
            let values = block.values(ofFrame: frame)
            for channel in 0..<self.channels { slot[Self.headerLanes + channel] = values[channel] }
        }
        if !stored { refuse(count: 1, time: time) }
    }

    private func refuse(count: Int, time: Double) {
        if refused == 0 { firstRefusedTime = time }
        refused += count
        lastRefusedTime = time
    }

    /// Writes the gap of the frames refused so far, if any; whether there is room for what follows.
    private func flushRefused() -> Bool {
        guard refused > 0 else { return true }
        let stored = ring.pushSlot { slot in
            slot[0] = Kind.gap.rawValue
            slot[1] = self.firstRefusedTime
            slot[2] = self.lastRefusedTime
            slot[3] = Double(self.refused)
            slot[4] = Double(GapRecord.Cause.allCases.firstIndex(of: .overflow) ?? 0)
            for lane in Self.headerLanes..<slot.count { slot[lane] = 0 }
        }
        if stored { refused = 0 }
        return stored
    }
}
