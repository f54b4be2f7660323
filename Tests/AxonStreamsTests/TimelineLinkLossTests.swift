import Testing

@testable import AxonStreams

/// Link outages marked by the producer, and 32-bit counters that restart.
@Suite("Timeline: link loss and counter restarts")
struct TimelineLinkLossTests {
    private let rate = 250.0

    /// Frames with a 32-bit counter and device time; `marked` frames carry the link-loss mark.
    private func block(counters: [UInt64], deviceTimes: [Double], marked: Set<Int> = []) -> SampleBlock {
        let block = SampleBlock(layout: FrameLayout(channelCount: 1), capacity: counters.count)
        for i in counters.indices {
            let row = i * block.layout.width
            block.rows[row + FrameLayout.sequenceLane] = Double(i)
            block.rows[row + FrameLayout.arrivalLane] = 100 + deviceTimes[i]
            block.rows[row + FrameLayout.deviceTimeLane] = 1_700_000_000 + deviceTimes[i]
            block.rows[row + FrameLayout.counterLane] = Double(counters[i])
            block.rows[row + FrameLayout.timestampLane] = marked.contains(i) ? FrameLayout.linkLossMarker : .nan
        }
        block.reset(frameCount: counters.count)
        return block
    }

    @Test func aMarkedCounterJumpIsOneLinkLossGap() throws {
        let b = block(counters: [0, 1, 2, 753, 754], deviceTimes: [0, 1, 2, 753, 754].map { $0 / rate }, marked: [3])
        let timeline = StreamTimeline(nominalRate: rate, configuration: .init(counterModulus: 1 << 32, clock: nil))
        timeline.process(b)
        try #require(b.gapCount == 1)
        #expect(b.gaps[0].gap.cause == .linkLoss)
        #expect(b.gaps[0].gap.missingCount == 750)
        #expect(b.timestamp(ofFrame: 3).isFinite)
    }

    @Test func aMarkedFrameWithoutCounterOrTimeIsAnOutageOfUnknownLength() throws {
        let b = SampleBlock(layout: FrameLayout(channelCount: 1), capacity: 3)
        for i in 0..<3 {
            let row = i * b.layout.width
            b.rows[row + FrameLayout.sequenceLane] = Double(i)
            b.rows[row + FrameLayout.arrivalLane] = 10 + Double(i) * (i == 2 ? 3 : 1)
            b.rows[row + FrameLayout.deviceTimeLane] = .nan
            b.rows[row + FrameLayout.counterLane] = .nan
            b.rows[row + FrameLayout.timestampLane] = i == 2 ? FrameLayout.linkLossMarker : .nan
        }
        b.reset(frameCount: 3)
        let timeline = StreamTimeline(nominalRate: 0, configuration: .init(clock: nil))
        timeline.process(b)
        try #require(b.gapCount == 1)
        #expect(b.gaps[0].gap.cause == .linkLoss && b.gaps[0].gap.missingCount == 0)
        #expect(b.gaps[0].gap.end > b.gaps[0].gap.start)
    }

    /// A device that restarts its counter (0 again) while its clock runs on: the clock measures the gap, instead
    /// of the wrapped counter's four billion samples.
    @Test func aRestartedCounterIsMeasuredByTheDeviceClock() throws {
        let times = [0.0, 1, 2, 1002, 1003].map { $0 / rate }
        let b = block(counters: [5000, 5001, 5002, 0, 1], deviceTimes: times)
        let timeline = StreamTimeline(nominalRate: rate, configuration: .init(counterModulus: 1 << 32, clock: nil))
        timeline.process(b)
        try #require(b.gapCount == 1)
        #expect(b.gaps[0].gap.missingCount == 999)
    }

    /// Without a device clock, a 32-bit counter that jumps back is a restart: no loss inferred.
    @Test func aWideCounterGoingBackIsARestartNotALoss() {
        let b = block(counters: [5000, 5001, 5002, 0, 1], deviceTimes: [0, 1, 2, 3, 4].map { $0 / rate })
        for i in 0..<5 { b.rows[i * b.layout.width + FrameLayout.deviceTimeLane] = .nan }
        let timeline = StreamTimeline(nominalRate: rate, configuration: .init(counterModulus: 1 << 32, clock: nil))
        timeline.process(b)
        #expect(b.gapCount == 0)
    }
}
