import Testing

@testable import AxonStreams

@Suite("Timeline: gaps and timestamps")
struct TimelineTests {
    /// Feeds frames straight into a block, as the ring would deliver them.
    private func block(_ frames: [(sequence: Double, arrival: Double, counter: UInt64?)], channels: Int = 1)
        -> SampleBlock
    {
        let block = SampleBlock(layout: FrameLayout(channelCount: channels), capacity: max(1, frames.count))
        for (i, f) in frames.enumerated() {
            let row = i * block.layout.width
            block.rows[row + FrameLayout.sequenceLane] = f.sequence
            block.rows[row + FrameLayout.arrivalLane] = f.arrival
            block.rows[row + FrameLayout.deviceTimeLane] = .nan
            block.rows[row + FrameLayout.counterLane] = f.counter.map { Double($0) } ?? .nan
        }
        block.reset(frameCount: frames.count)
        return block
    }

    /// Counter 0…4 then 8…: one gap record of 3 samples, starting one period after sample 4.
    @Test func counterJumpFromFourToEightIsOneGapOfThree() throws {
        let rate = 250.0
        let counters: [UInt64] = [0, 1, 2, 3, 4, 8, 9, 10]
        var frames: [(sequence: Double, arrival: Double, counter: UInt64?)] = []
        for (i, c) in counters.enumerated() { frames.append((Double(i), 100 + Double(c) / rate, c)) }
        let timeline = StreamTimeline(nominalRate: rate, configuration: .init(clock: .init(anchor: .mean)))
        let b = block(frames)
        timeline.process(b)
        try #require(b.gapCount == 1)
        let gap = b.gaps[0]
        #expect(gap.beforeFrame == 5)
        #expect(gap.gap.cause == .deviceCounter)
        #expect(gap.gap.missingCount == 3)
        let t4 = b.timestamp(ofFrame: 4)
        let t8 = b.timestamp(ofFrame: 5)
        #expect(abs(gap.gap.start - (t4 + 1 / rate)) < 1e-9)
        #expect(abs(gap.gap.end - (t4 + 3 / rate)) < 1e-9)
        #expect(abs((t8 - t4) - 4 / rate) < 1e-6)  // the hole keeps its length on the time axis
        for i in 1..<b.frameCount { #expect(b.timestamp(ofFrame: i) > b.timestamp(ofFrame: i - 1)) }
        #expect(timeline.gapRecordCount == 1 && timeline.missingSampleCount == 3)
    }

    /// An 8-bit counter that wraps (…254, 255, 0, 1…) is continuous; a loss across the wrap is still seen.
    @Test func wrappingCounterUnwraps() throws {
        let counters: [UInt64] = [253, 254, 255, 0, 1, 4, 5]
        var frames: [(sequence: Double, arrival: Double, counter: UInt64?)] = []
        for (i, c) in counters.enumerated() { frames.append((Double(i), Double(i) * 0.004, c)) }
        let timeline = StreamTimeline(nominalRate: 250, configuration: .init(counterModulus: 256))
        let b = block(frames)
        timeline.process(b)
        try #require(b.gapCount == 1)
        #expect(b.gaps[0].gap.missingCount == 2)
        #expect(b.gaps[0].beforeFrame == 5)
    }

    /// A jump in the producer sequence is ring overflow, not device loss.
    @Test func sequenceJumpIsOverflow() throws {
        let frames: [(sequence: Double, arrival: Double, counter: UInt64?)] = [
            (0, 0, 10), (1, 0.004, 11), (5, 0.020, 15), (6, 0.024, 18),
        ]
        let b = block(frames)
        StreamTimeline(nominalRate: 250).process(b)
        try #require(b.gapCount == 2)
        #expect(b.gaps[0].gap.cause == .overflow && b.gaps[0].gap.missingCount == 3 && b.gaps[0].beforeFrame == 2)
        #expect(b.gaps[1].gap.cause == .deviceCounter && b.gaps[1].gap.missingCount == 2 && b.gaps[1].beforeFrame == 3)
    }

    /// Without counters or device times, only the producer sequence tells of loss.
    @Test func noCounterUsesSequence() {
        let frames: [(sequence: Double, arrival: Double, counter: UInt64?)] = [(0, 0, nil), (1, 0.004, nil), (2, 0.008, nil)]
        let b = block(frames)
        StreamTimeline(nominalRate: 250).process(b)
        #expect(b.gapCount == 0)
    }

    /// Frames rejected after the last delivered one are reported when the stream ends.
    @Test func trailingRejectionsAreReportedAtTheEnd() throws {
        let timeline = StreamTimeline(nominalRate: 250)
        let b = block([(0, 0, nil), (1, 0.004, nil)])
        timeline.process(b)
        b.reset(frameCount: 0)
        timeline.finish(offeredFrames: 7, into: b)
        try #require(b.gapCount == 1)
        #expect(b.gaps[0].gap.missingCount == 5 && b.gaps[0].gap.cause == .overflow)
    }
}
