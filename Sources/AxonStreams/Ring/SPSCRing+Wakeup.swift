import Atomics

#if canImport(Glibc)
    import Glibc
#endif

// Wake-ups: a consumer blocks on an eventfd only after saying so, and the producer rings only then.
//
// The race between "the consumer decides to sleep" and "the producer publishes a slot" is closed the way Dekker's
// algorithm closes it: each side stores its own word (consumer: `consumerAsleep = 1`; producer: `tail`), then a
// sequentially consistent fence, then loads the other's. At least one of them sees the other's store: either the
// producer sees the flag and writes the eventfd (whose counter stays set until read, so a write before the poll is
// not lost), or the consumer sees the new tail and does not sleep. A lossless producer waiting for room mirrors it:
// it stores how many free slots it waits for in `producerWaiting`, fences and loads `head`/`reading`; the consumer
// stores them, fences, loads `producerWaiting` and rings once that many slots are free (a ring per release would
// make the consumer, the busier side of a full ring, pay a system call for every batch).

extension SPSCRing {
    /// Whether the consumer can block in ``waitForData(timeout:)`` (the ring was made `wakeable` and has its
    /// `eventfd`).
    public var isWakeable: Bool { wakeDescriptor >= 0 }

    /// Producer side (and `closeProducer`/`requestStop`): wakes a consumer asleep in ``waitForData(timeout:)``.
    /// One fence and one load when it is awake; one `write(2)` when it sleeps.
    @inlinable
    func wakeConsumerIfAsleep() {
        guard wakeDescriptor >= 0 else { return }
        // sequentiallyConsistent: orders the `tail` (or `closed`, `stopRequested`) store before the flag's load
        // against the consumer's flag store before its `tail` load (see the file's comment).
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        // relaxed: the fence above orders the load; the exchange makes one waker ring, not two.
        guard consumerAsleep.load(ordering: .relaxed) != 0,
            consumerAsleep.exchange(0, ordering: .relaxed) != 0
        else { return }
        Self.ring(wakeDescriptor)
        // The kernel tends to queue the woken consumer on the waker's own core (wake-affine); a producer that then
        // keeps its core busy would hold it there for a whole time slice (milliseconds). Yielding once lets it run
        // at once if so, and costs nothing when it was placed on an idle core.
        sched_yield()
    }

    /// Consumer side (and `requestStop`, with `always`): wakes a producer asleep in
    /// ``waitForRoom(atLeast:timeout:)`` once the room it waits for is free. One fence and one load when it is not
    /// waiting; one `write(2)` when it is and the room is there.
    @inlinable
    func wakeProducerIfWaiting(always: Bool = false) {
        // Only the descriptor check is inlined into every pop: a ring without wake-ups pays a load and a branch.
        if roomDescriptor >= 0 { wakeWaitingProducer(always: always) }
    }

    @usableFromInline
    func wakeWaitingProducer(always: Bool) {
        // sequentiallyConsistent: orders the `head`/`reading` store (or `stopRequested`) before the flag's load
        // against the producer's flag store before its index loads (see the file's comment).
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        // relaxed: the fence above orders the load; the exchange makes one waker ring, not two.
        let wanted = producerWaiting.load(ordering: .relaxed)
        guard wanted != 0 else { return }
        if !always {
            // acquiring, as in `producerFreeSlots`; `tail` does not move while the producer waits.
            let lowest = min(head.load(ordering: .acquiring), reading.load(ordering: .acquiring))
            guard capacity &- (tail.load(ordering: .acquiring) &- lowest) >= wanted else { return }
        }
        guard producerWaiting.exchange(0, ordering: .relaxed) != 0 else { return }
        Self.ring(roomDescriptor)
    }

    /// Producer only: blocks until at least `slots` slots are free (``producerFreeSlots``), a stop is requested, or
    /// `timeout` seconds pass — for a producer that must not lose a slot (a file replay) facing a full ring. The
    /// consumer rings it when a hand-back leaves that many slots free, so the producer sleeps without polling and
    /// wakes when there is room. Waiting for a good share of the ring (half, say) keeps the wake-ups few; a
    /// wake-up costs the consumer a system call. A ring that is not wakeable naps `timeout` instead.
    ///
    /// - Returns: `true` when `slots` slots are free now, `false` on a timeout or a stop request with less room.
    /// - Complexity: one `poll(2)` and one `read(2)` when it sleeps; allocates nothing.
    @discardableResult
    public func waitForRoom(atLeast slots: Int = 1, timeout: Double) -> Bool {
        guard roomDescriptor >= 0 else {
            if producerFreeSlots >= slots { return true }
            HostClock.sleep(until: HostClock.now() + timeout)
            return producerFreeSlots >= slots
        }
        precondition(slots >= 1 && slots <= capacity, "wait for 1 to capacity slots")
        // relaxed + fence: see the file's comment; the fence orders this store before the loads below.
        producerWaiting.store(slots, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        if producerFreeSlots >= slots || stopRequested.load(ordering: .acquiring) != 0 {
            producerWaiting.store(0, ordering: .relaxed)  // relaxed: only this thread sleeps on it
            return producerFreeSlots >= slots
        }
        _ = Self.sleep(on: roomDescriptor, timeout: timeout)  // the room decides, not the wake-up
        producerWaiting.store(0, ordering: .relaxed)  // relaxed: a late ring only costs one spare wake-up
        return producerFreeSlots >= slots
    }

    /// Consumer only: blocks until the producer publishes, closes or a stop is requested, or `timeout` seconds
    /// pass; returns at once if there is something to pop already. A ring that is not wakeable naps `timeout`.
    ///
    /// - Returns: `true` when woken by the producer or there was no need to sleep, `false` on a timeout.
    /// - Complexity: one `poll(2)` and one `read(2)` when it sleeps; allocates nothing.
    @discardableResult
    public func waitForData(timeout: Double) -> Bool {
        guard wakeDescriptor >= 0 else {
            HostClock.sleep(until: HostClock.now() + timeout)
            return false
        }
        // relaxed + fence: see the file's comment; the fence orders this store before the loads below.
        consumerAsleep.store(1, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        if !isEmpty || closed.load(ordering: .acquiring) != 0 || stopRequested.load(ordering: .acquiring) != 0 {
            consumerAsleep.store(0, ordering: .relaxed)  // relaxed: only this thread sleeps on it
            return true
        }
        let woken = Self.sleep(on: wakeDescriptor, timeout: timeout)
        consumerAsleep.store(0, ordering: .relaxed)  // relaxed: a late ring only costs one spare wake-up
        return woken
    }

    /// Sets an `eventfd`'s counter, waking whoever sleeps on it. EAGAIN means the counter is already set: the
    /// sleeper is woken either way.
    @usableFromInline
    static func ring(_ descriptor: Int32) {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// Sleeps on an `eventfd` until it is set or `timeout` seconds pass, then resets its counter. Returns whether it
    /// was set (a signal's EINTR reads as not set; every caller looks at the ring again either way).
    static func sleep(on descriptor: Int32, timeout: Double) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min(Double(Int32.max), max(1, (timeout * 1000).rounded(.up))))
        let ready = poll(&request, 1, milliseconds)
        var value: UInt64 = 0
        _ = read(descriptor, &value, 8)  // resets the counter; EAGAIN after a timeout
        return ready > 0
    }
}
