#if canImport(Glibc)
    import Glibc
#endif

/// The producer's handle on a regular numeric stream: stamps each frame and pushes it into the stream's ring.
///
///     let writer = pipeline.makeWriter()
///     writer.write([12.5, -3.1, 7.0, 0.4], counter: packetCounter)   // on the device thread
///     writer.finish()
///
/// Threading contract: one producer thread owns the writer (it is the ring's single producer). `write` never
/// blocks, locks or allocates; when the ring is full the frame is handled by the ring's overflow policy and the
/// loss shows up as a ``GapRecord`` with cause `.overflow` downstream.
public final class FrameWriter: @unchecked Sendable {
    // Sendable invariant: one producer thread at a time uses the writer (`nextSequence` is its only mutable
    // state); handing it to another thread needs a happens-before edge, as thread start gives.
    /// The stream's frame layout.
    public let layout: FrameLayout
    @usableFromInline let ring: SPSCRing<Double>
    @usableFromInline var nextSequence: Double = 0
    @usableFromInline var linkLossPending = false

    /// Wraps a ring whose slots are frames of `layout`.
    public init(ring: SPSCRing<Double>, layout: FrameLayout) {
        precondition(ring.width == layout.width, "ring width must match the frame layout")
        self.ring = ring
        self.layout = layout
    }

    /// Pushes one frame.
    ///
    /// - Parameters:
    ///   - values: one value per channel (`layout.channelCount` of them).
    ///   - deviceTime: the device's timestamp in seconds, if it has one.
    ///   - counter: the device's sample or packet counter, if it has one.
    ///   - arrivalTime: host monotonic arrival time; defaults to now. Pass the time the transport received the
    ///     bytes when several frames arrive in one packet.
    /// - Returns: `true` if the frame was stored (overflow may have dropped an older one; see ``OverflowPolicy``).
    /// - Complexity: O(channels).
    @inlinable
    @discardableResult
    public func write(
        _ values: UnsafeBufferPointer<Double>, deviceTime: Double? = nil, counter: UInt64? = nil,
        arrivalTime: Double = HostClock.now()
    ) -> Bool {
        precondition(values.count == layout.channelCount, "a frame needs one value per channel")
        let sequence = nextSequence
        nextSequence += 1
        defer { linkLossPending = false }
        return ring.pushSlot { slot in
            slot[FrameLayout.sequenceLane] = sequence
            slot[FrameLayout.arrivalLane] = arrivalTime
            slot[FrameLayout.deviceTimeLane] = deviceTime ?? .nan
            slot[FrameLayout.counterLane] = counter.map { Double($0) } ?? .nan
            slot[FrameLayout.timestampLane] = linkLossPending ? FrameLayout.linkLossMarker : .nan
            for channel in 0..<values.count {
                slot[FrameLayout.headerLanes + channel] = values[channel]
            }
        }
    }

    /// Pushes `count` frames whose values lie frame-major in `values` (`stride` doubles per frame, channel 0 at
    /// `valueOffset`), publishing them to the consumer at once: what a file replay or a packet of many samples
    /// writes. Frame `i` is stamped with `deviceTime(i)`, `counter(i)` and `arrivalTime(i)`.
    ///
    /// Every frame takes a sequence number whether or not it is stored, exactly as `count` calls of
    /// ``write(_:deviceTime:counter:arrivalTime:)-(UnsafeBufferPointer<Double>,_,_,_)`` would; a lossless producer
    /// writes at most ``freeCapacity`` frames.
    /// - Precondition: `count` ≤ the ring's capacity, `values` holds `count` frames.
    /// - Returns: frames stored (the first that many).
    /// - Complexity: O(count × channels); never blocks, locks or allocates.
    @inlinable
    @discardableResult
    public func write(
        frames values: UnsafeBufferPointer<Double>, count: Int, stride: Int, valueOffset: Int = 0,
        deviceTime: (Int) -> Double?, counter: (Int) -> UInt64?, arrivalTime: (Int) -> Double
    ) -> Int {
        let channels = layout.channelCount
        precondition(valueOffset + channels <= stride && values.count >= count * stride, "frames out of bounds")
        guard count > 0, let base = values.baseAddress else { return 0 }
        let first = nextSequence
        nextSequence += Double(count)
        let lossMark = linkLossPending ? FrameLayout.linkLossMarker : .nan
        linkLossPending = false
        let source = base + valueOffset
        return ring.pushSlots(count) { i, slot in
            slot[FrameLayout.sequenceLane] = first + Double(i)
            slot[FrameLayout.arrivalLane] = arrivalTime(i)
            slot[FrameLayout.deviceTimeLane] = deviceTime(i) ?? .nan
            slot[FrameLayout.counterLane] = counter(i).map { Double($0) } ?? .nan
            slot[FrameLayout.timestampLane] = i == 0 ? lossMark : .nan
            let frame = source + i * stride
            for channel in 0..<channels { slot[FrameLayout.headerLanes + channel] = frame[channel] }
        }
    }

    /// Pushes one frame from an array (no copy: the array's storage is read in place).
    @inlinable
    @discardableResult
    public func write(
        _ values: [Double], deviceTime: Double? = nil, counter: UInt64? = nil, arrivalTime: Double = HostClock.now()
    ) -> Bool {
        values.withUnsafeBufferPointer {
            write($0, deviceTime: deviceTime, counter: counter, arrivalTime: arrivalTime)
        }
    }

    /// Declares that the link to the device was down since the last frame (a Bluetooth outage, a vanished serial
    /// port). The next frame carries the mark, and the samples missing before it — known from the device counter
    /// or timestamps — become one ``GapRecord`` with cause `.linkLoss` instead of `.deviceCounter`; a stream with
    /// neither gets a `.linkLoss` record of unknown length (0 samples) spanning the outage. Producer thread only.
    public func noteLinkLoss() { linkLossPending = true }

    /// Frames that can be written right now without engaging the ring's overflow policy.
    ///
    /// A lossless producer (a file replay) writes at most this many frames, then asks again, waiting while it is 0.
    /// Retrying a rejected ``write(_:deviceTime:counter:arrivalTime:)-(UnsafeBufferPointer<Double>,_,_,_)`` instead
    /// would not do: every call consumes a sequence number, so each rejection shows up downstream as an overflow gap
    /// even if the retry succeeds. Producer thread only; O(1), never blocks.
    public var freeCapacity: Int { ring.producerFreeSlots }

    /// Waits until at least `frames` frames fit (``freeCapacity``), a stop is requested or `timeout` seconds pass:
    /// how a lossless producer (a file replay) waits on a full ring. It first yields the CPU up to `spins` times,
    /// looking again after each — at full speed the consumer frees the room within a fraction of a millisecond, and
    /// a producer that finds it this way costs the consumer nothing — then blocks until the consumer, handing slots
    /// back, wakes it (``SPSCRing/waitForRoom(atLeast:timeout:)``: a system call on the consumer's side, so once per
    /// `frames` at most). Producer thread only.
    ///
    /// - Returns: `true` when `frames` frames fit now.
    @discardableResult
    public func waitForRoom(atLeast frames: Int = 1, spins: Int = 1000, timeout: Double = 0.05) -> Bool {
        for _ in 0..<spins {
            if ring.producerFreeSlots >= frames { return true }
            if ring.isStopRequested { return false }
            sched_yield()
        }
        return ring.waitForRoom(atLeast: frames, timeout: timeout)
    }

    /// Slots in the stream's ring: the most frames one ``write(frames:count:stride:valueOffset:deviceTime:counter:arrivalTime:)``
    /// may offer.
    public var ringCapacity: Int { ring.capacity }

    /// Whether the consumer side asked the producer to stop (a source checks this between frames).
    public var isStopRequested: Bool { ring.isStopRequested }

    /// For a source whose frames are written from callbacks: blocks its own thread until the pipeline asks it to
    /// stop, ``interruptWait()`` is called or `timeout` seconds pass (nil: no limit); returns ``isStopRequested``.
    public func waitForStopRequest(timeout: Double? = nil) -> Bool { ring.waitForStopRequest(timeout: timeout) }

    /// Wakes the source's thread from ``waitForStopRequest(timeout:)`` early. Any thread.
    public func interruptWait() { ring.interruptProducerWait() }

    /// Declares that no more frames follow; the pipeline delivers what is buffered and then finishes.
    public func finish() { ring.closeProducer() }
}
