/// The consumer-side bookkeeping of one regular stream's time axis: it turns counter jumps and ring overflow
/// into ``GapRecord``s and gives every frame a dejittered, strictly increasing timestamp.
///
/// For each frame it works out the frame's *sample index* — from the device counter (unwrapped modulo
/// `counterModulus` when the counter wraps), else from the device timestamp × nominal rate, else from the
/// producer sequence — and compares it with the previous frame's:
/// - a jump in the producer sequence means the ring dropped frames → a gap with cause `.overflow`;
/// - a larger jump in the sample index means the device or link lost them → a gap with cause `.deviceCounter`,
///   or `.linkLoss` when the producer marked the frame as the first after a link outage
///   (``FrameWriter/noteLinkLoss()``; a marked frame with no measurable jump still gets a `.linkLoss` record).
///
/// The timestamp is the ``ClockEstimator``'s host time for the frame's device time (or index ÷ rate); a gap's
/// start and end are the times the missing samples would have had at the nominal rate.
///
/// Threading contract: single owner (the pipeline's consumer thread); allocates nothing after init.
public final class StreamTimeline {
    /// Settings of the timeline.
    public struct Configuration: Sendable, Hashable {
        /// The device counter wraps to 0 after `counterModulus - 1` (for example 256 for an 8-bit counter);
        /// `nil` for counters that do not wrap. A gap of a whole modulus or more cannot be seen in a wrapping
        /// counter.
        public var counterModulus: UInt64?
        /// Clock estimation settings; `nil` keeps the raw arrival times as timestamps.
        public var clock: ClockEstimator.Configuration?

        /// Creates a configuration.
        public init(counterModulus: UInt64? = nil, clock: ClockEstimator.Configuration? = .init()) {
            precondition(counterModulus.map { $0 >= 2 } ?? true, "a counter modulus must be at least 2")
            self.counterModulus = counterModulus
            self.clock = clock
        }
    }

    private let rate: Double
    /// `1 / rate`, or 0 for an irregular stream (computed once: it is needed for every frame).
    private let period: Double
    private let configuration: Configuration
    private let clock: ClockEstimator?
    private var lastSequence = -1.0
    private var lastIndex = 0.0
    private var lastCounter: Double?
    private var lastDeviceTime: Double?
    private var lastTimestamp = -Double.infinity
    private var started = false

    /// Gap records emitted so far.
    public private(set) var gapRecordCount = 0
    /// Samples reported missing so far.
    public private(set) var missingSampleCount = 0

    /// Creates the timeline of a stream with the given nominal rate (0 for irregular streams).
    public init(nominalRate: Double, configuration: Configuration = .init()) {
        self.rate = nominalRate
        self.period = nominalRate > 0 ? 1 / nominalRate : 0
        self.configuration = configuration
        self.clock = configuration.clock.map { ClockEstimator(configuration: $0) }
    }

    /// Stamps every frame of `block` and appends the gap records that precede its frames.
    ///
    /// - Complexity: O(frames), plus the clock estimator's amortised refits.
    public func process(_ block: SampleBlock) {
        var frame = 0
        while frame < block.frameCount {
            if clock == nil, started {
                frame = stampInSequence(from: frame, in: block)
                guard frame < block.frameCount else { break }
            }
            stamp(frame: frame, in: block)
            frame += 1
        }
    }

    /// The common case without a clock estimator: stamps the run of frames from `start` that follow each other
    /// with nothing lost (next sequence number, and the next counter value or device time one period on), with
    /// the running state in registers. Returns the first frame it did not stamp, which takes the general path.
    private func stampInSequence(from start: Int, in block: SampleBlock) -> Int {
        // Locals, not properties: the stores into `rows` below could alias the object's fields, which would make
        // the compiler reload them every frame.
        let rows = block.rows.baseAddress!
        let width = block.layout.width
        let count = block.frameCount
        let rate = self.rate
        var sequence = lastSequence
        var counter = lastCounter ?? .nan
        var deviceTime = lastDeviceTime ?? .nan
        var timestamp = lastTimestamp
        var frame = start
        while frame < count {
            let row = frame &* width  // within the block: cannot overflow
            let nextSequence = rows[row + FrameLayout.sequenceLane]
            // A frame marked as the first after a link outage takes the general path, which reports the outage.
            guard nextSequence == sequence + 1, rows[row + FrameLayout.timestampLane] != FrameLayout.linkLossMarker
            else { break }
            let nextCounter = rows[row + FrameLayout.counterLane]
            let nextDeviceTime = rows[row + FrameLayout.deviceTimeLane]
            // A comparison with a NaN (no previous counter or time) is false: such frames take the general path.
            if !nextCounter.isNaN {
                guard nextCounter == counter + 1 else { break }
            } else if !nextDeviceTime.isNaN {
                guard abs((nextDeviceTime - deviceTime) * rate - 1) < 0.5 else { break }
            }
            var nextTimestamp = rows[row + FrameLayout.arrivalLane]
            if nextTimestamp <= timestamp { nextTimestamp = timestamp.nextUp }
            rows[row + FrameLayout.timestampLane] = nextTimestamp
            sequence = nextSequence
            counter = nextCounter
            deviceTime = nextDeviceTime
            timestamp = nextTimestamp
            frame += 1
        }
        if frame > start {
            lastSequence = sequence
            lastIndex += Double(frame - start)
            lastCounter = counter.isNaN ? nil : counter
            lastDeviceTime = deviceTime.isNaN ? nil : deviceTime
            lastTimestamp = timestamp
        }
        return frame
    }

    /// Reports the frames the ring rejected after the last delivered one, given how many frames the producer
    /// offered in total. Call once, when the stream has ended; appends to `block` (which may hold no frames).
    public func finish(offeredFrames: Int, into block: SampleBlock) {
        let missing = Double(offeredFrames) - (lastSequence + 1)
        guard missing >= 1 else { return }
        let period = rate > 0 ? 1 / rate : 0
        let start = started ? lastTimestamp + period : HostClock.now()
        append(.init(cause: .overflow, missingCount: Int(missing), start: start,
                     end: start + (missing - 1) * period), before: block.frameCount, in: block)
    }

    private func stamp(frame: Int, in block: SampleBlock) {
        let sequence = block.sequence(ofFrame: frame)
        let arrival = block.arrivalTime(ofFrame: frame)
        let deviceTime = block.lane(FrameLayout.deviceTimeLane, ofFrame: frame)
        let counter = block.lane(FrameLayout.counterLane, ofFrame: frame)
        let afterLinkLoss = started && block.lane(FrameLayout.timestampLane, ofFrame: frame) == FrameLayout.linkLossMarker

        let overflowMissing = sequence - lastSequence - 1  // frames the ring dropped before this one
        let step = indexStep(counter: counter, deviceTime: deviceTime, overflowMissing: overflowMissing)
        let index = started ? lastIndex + step : 0
        let deviceMissing = started ? max(0, step - 1 - overflowMissing) : 0

        var timestamp = arrival
        if let clock {
            let axis = !deviceTime.isNaN ? deviceTime : (rate > 0 ? index / rate : arrival)
            clock.observe(deviceTime: axis, arrivalTime: arrival)
            timestamp = clock.hostTime(forDeviceTime: axis)
        }
        // Refits move the line by microseconds; never let that reorder samples.
        if timestamp <= lastTimestamp { timestamp = lastTimestamp.nextUp }

        if overflowMissing >= 1 {
            // Before the first frame there is no previous time: count back from this frame.
            let start = started ? lastTimestamp + period : timestamp - (overflowMissing + deviceMissing) * period
            append(.init(cause: .overflow, missingCount: Int(overflowMissing), start: start,
                         end: start + (overflowMissing - 1) * period), before: frame, in: block)
        }
        if deviceMissing >= 1 {
            // Counted forward from the last delivered sample (after any overflow gap): the times the missing
            // samples would have had.
            let start = lastTimestamp + (max(0, overflowMissing) + 1) * period
            append(.init(cause: afterLinkLoss ? .linkLoss : .deviceCounter, missingCount: Int(deviceMissing),
                         start: start, end: start + (deviceMissing - 1) * period), before: frame, in: block)
        } else if afterLinkLoss {
            // No counter or device time to measure the outage by: its length in samples is unknown.
            append(.init(cause: .linkLoss, missingCount: 0, start: lastTimestamp, end: timestamp),
                   before: frame, in: block)
        }

        block.setTimestamp(timestamp, ofFrame: frame)
        lastSequence = sequence
        lastIndex = index
        lastCounter = counter.isNaN ? nil : counter
        lastDeviceTime = deviceTime.isNaN ? nil : deviceTime
        lastTimestamp = timestamp
        started = true
    }

    /// How far this frame's sample index is from the previous frame's.
    private func indexStep(counter: Double, deviceTime: Double, overflowMissing: Double) -> Double {
        if !counter.isNaN, let previous = lastCounter {
            var delta = counter - previous
            if let modulus = configuration.counterModulus.map({ Double($0) }) {
                // The usual step (0 < delta < modulus) needs no remainder, which costs a division.
                if delta <= 0 || delta >= modulus {
                    delta = delta.truncatingRemainder(dividingBy: modulus)
                    if delta <= 0 { delta += modulus }
                }
                // A wrapping counter cannot show a loss of a whole modulus; the ring's own count is exact.
                while delta < overflowMissing + 1 { delta += modulus }
                // A wide counter (16 bits or more) that jumps more than half its range went backwards (serial-number
                // arithmetic, RFC 1982): a restart, not months of lost samples.
                if modulus >= 65_536, delta > modulus / 2, delta > overflowMissing + 1 { delta = -1 }
            }
            // A counter that restarted (a rebooted device, a reset link) reads as a huge wrapped step or as going
            // backwards. When the device also stamps time, its clock says how many samples really passed.
            if !deviceTime.isNaN, let previousTime = lastDeviceTime, rate > 0 {
                let byTime = ((deviceTime - previousTime) * rate).rounded()
                if abs(delta - byTime) > rate, byTime >= 1 { return max(overflowMissing + 1, byTime) }
            }
            // A counter that went backwards or repeated means the device restarted it: no loss can be inferred.
            return delta >= 1 ? delta : overflowMissing + 1
        }
        if !deviceTime.isNaN, let previous = lastDeviceTime, rate > 0 {
            let steps = (deviceTime - previous) * rate
            // Round half away from zero; the integer conversion avoids a libm call for the usual positive step.
            let rounded = steps >= 0 && steps < 1e15 ? Double(Int(steps + 0.5)) : steps.rounded()
            return max(overflowMissing + 1, rounded)
        }
        return overflowMissing + 1
    }

    private func append(_ gap: GapRecord, before frame: Int, in block: SampleBlock) {
        block.appendGap(gap, beforeFrame: frame)
        gapRecordCount += 1
        missingSampleCount += gap.missingCount
    }
}
