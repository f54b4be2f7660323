import Atomics
import CLinux
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// What a full ring does with the samples that do not fit.
public enum OverflowPolicy: String, Sendable, Hashable, CaseIterable {
    /// Discard the oldest unread slots to make room: the consumer always gets the freshest data.
    ///
    /// While the consumer is in the middle of reading the oldest slots they cannot be discarded; the
    /// producer then rejects the newest instead. Either way every lost slot is counted.
    case dropOldest
    /// Keep what is already buffered and reject the newest slots.
    case rejectNewest
}

/// A lock-free single-producer/single-consumer ring of fixed-width slots.
///
/// The one hand-off between a producer thread (a device, a replay, a simulator) and a consumer thread (the
/// stream's processor). A slot holds `width` elements, so a multi-channel frame moves as one unit; with the
/// default width of 1 it is an ordinary element ring.
///
///     let ring = SPSCRing<Double>(capacity: 1024, overflow: .rejectNewest)
///     ring.push(1.5)          // producer thread
///     let x = ring.pop()      // consumer thread → 1.5
///
/// Threading contract: exactly one thread calls the producer methods (`push…`, `closeProducer`) and exactly one
/// thread calls the consumer methods (`pop…`); which thread may change over time only with a happens-before edge
/// between the old and the new owner (for example a thread join). The statistics properties and `requestStop`
/// may be used from any thread. Neither side ever blocks, takes a lock or allocates.
///
/// Memory layout: producer-written words and consumer-written words sit in separate 128-byte blocks so the two
/// cores do not false-share a cache line. Indices are monotonically increasing slot counts (`Int`, 2^63 slots
/// never wrap in practice); the storage position is `index & (capacity - 1)`.
///
/// Wake-ups (``init(capacity:width:overflow:wakeable:)`` with `wakeable`): a consumer with nothing to do can block
/// in ``waitForData(timeout:)`` instead of polling. It says so in a flag and sleeps on an `eventfd`; the producer,
/// after publishing, checks the flag and writes the `eventfd` only when it is set. While the consumer is awake
/// the producer pays one fence and one load per push, never a system call. The other way round, a lossless producer
/// facing a full ring blocks in ``waitForRoom(atLeast:timeout:)`` the same way, and the consumer rings it when a
/// hand-back leaves the room it waits for (one fence and one load per pop while the producer is not waiting).
///
/// Each atomic access in this type says who writes it, who reads it and why its ordering suffices. (It is not the
/// project's only atomic state: counters and flags elsewhere are `Synchronization.Atomic` or swift-atomics values.)
public final class SPSCRing<Element>: @unchecked Sendable {
    // Sendable invariant: `storage` slots in [head, tail) are only touched by the consumer after it has observed
    // `tail` with acquire (the producer's release store published them), slots outside it only by the producer
    // after it has observed `head`/`reading` with acquire (the consumer's release published that it is done).

    /// Number of slots; a power of two.
    public let capacity: Int
    /// Elements per slot.
    public let width: Int
    /// What `push` does when the ring is full.
    public let overflowPolicy: OverflowPolicy

    @usableFromInline let mask: Int
    @usableFromInline let storage: UnsafeMutablePointer<Element>
    @usableFromInline let control: UnsafeMutableRawPointer

    // Consumer block (offset 0): the consumer writes these; the producer writes `head` only when dropping.
    @usableFromInline let head: UnsafeAtomic<Int>
    @usableFromInline let reading: UnsafeAtomic<Int>
    @usableFromInline let popped: UnsafeAtomic<Int>
    // Producer block (offset 128): only the producer writes these.
    @usableFromInline let tail: UnsafeAtomic<Int>
    @usableFromInline let droppedOldest: UnsafeAtomic<Int>
    /// Offered slots that never entered the ring: rejected, or cut from the front of an oversized batch.
    @usableFromInline let discarded: UnsafeAtomic<Int>
    // Shared block (offset 256): rare writes from either side or a controller.
    @usableFromInline let peak: UnsafeAtomic<Int>
    @usableFromInline let closed: UnsafeAtomic<Int>
    @usableFromInline let stopRequested: UnsafeAtomic<Int>
    /// 1 while the consumer is (about to be) asleep in ``waitForData(timeout:)``; written by the consumer to
    /// 1 and back to 0, by the producer to 0 when it rings.
    @usableFromInline let consumerAsleep: UnsafeAtomic<Int>
    /// While the producer is (about to be) asleep in ``waitForRoom(atLeast:timeout:)``, the free slots it waits for,
    /// else 0; written by the producer, and by the consumer to 0 when it rings.
    @usableFromInline let producerWaiting: UnsafeAtomic<Int>
    /// The `eventfd` a sleeping consumer waits on, or -1 for a ring without wake-ups.
    @usableFromInline let wakeDescriptor: Int32
    /// The `eventfd` a producer waiting for room sleeps on, or -1 for a ring without wake-ups.
    @usableFromInline let roomDescriptor: Int32
    /// What a producer waiting in ``waitForStopRequest(timeout:)`` blocks on: signalled by ``requestStop()`` and
    /// ``interruptProducerWait()``.
    let producerWakeup = DispatchSemaphore(value: 0)

    /// `reading` holds this while the consumer is not reading claimed slots.
    @usableFromInline static var notReading: Int { Int.max }

    // Plain (non-atomic) caches, each private to one side, in that side's block.
    @usableFromInline static var consumerCachedTailOffset: Int { 64 }
    @usableFromInline static var producerCachedLowestOffset: Int { 128 + 64 }
    @usableFromInline static var controlBytes: Int { 384 }

    /// Creates an empty ring.
    ///
    /// - Parameters:
    ///   - capacity: number of slots; must be a power of two (see ``powerOfTwo(atLeast:)``).
    ///   - width: elements per slot (channels of a frame, for example); at least 1.
    ///   - overflow: what a full ring does with what does not fit.
    ///   - wakeable: give the consumer ``waitForData(timeout:)`` and the producer ``waitForRoom(atLeast:timeout:)``
    ///     (an `eventfd` each). If the system refuses them, the ring works without (``isWakeable`` is false and
    ///     waiting naps instead).
    /// - Complexity: O(capacity × width) to allocate; nothing allocates afterwards.
    public init(capacity: Int, width: Int = 1, overflow: OverflowPolicy, wakeable: Bool = false) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "SPSCRing capacity must be a power of two")
        precondition(width >= 1, "SPSCRing width must be at least 1")
        self.capacity = capacity
        self.width = width
        self.overflowPolicy = overflow
        self.mask = capacity - 1
        self.storage = .allocate(capacity: capacity * width)
        let control = UnsafeMutableRawPointer.allocate(byteCount: Self.controlBytes, alignment: 128)
        control.initializeMemory(as: UInt8.self, repeating: 0, count: Self.controlBytes)
        self.control = control

        func atomic(at offset: Int, _ initial: Int) -> UnsafeAtomic<Int> {
            let cell = (control + offset).bindMemory(to: UnsafeAtomic<Int>.Storage.self, capacity: 1)
            cell.initialize(to: .init(initial))
            return UnsafeAtomic(at: cell)
        }
        head = atomic(at: 0, 0)
        reading = atomic(at: 8, Self.notReading)
        popped = atomic(at: 16, 0)
        tail = atomic(at: 128, 0)
        droppedOldest = atomic(at: 136, 0)
        discarded = atomic(at: 144, 0)
        peak = atomic(at: 256, 0)
        closed = atomic(at: 264, 0)
        stopRequested = atomic(at: 272, 0)
        consumerAsleep = atomic(at: 280, 0)
        producerWaiting = atomic(at: 288, 0)
        let wakeDescriptor = wakeable ? axon_eventfd() : -1
        let roomDescriptor = wakeDescriptor >= 0 ? axon_eventfd() : -1
        // Both or neither: a ring is wakeable in both directions or not at all.
        if roomDescriptor < 0, wakeDescriptor >= 0 { close(wakeDescriptor) }
        self.wakeDescriptor = roomDescriptor >= 0 ? wakeDescriptor : -1
        self.roomDescriptor = roomDescriptor
    }

    deinit {
        // Both threads are gone (we hold the last reference): plain loads are enough.
        let first = head.load(ordering: .relaxed)
        let last = tail.load(ordering: .relaxed)
        var index = first
        while index != last {
            (storage + (index & mask) * width).deinitialize(count: width)
            index &+= 1
        }
        storage.deallocate()
        control.deallocate()
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
        if roomDescriptor >= 0 { close(roomDescriptor) }
    }

    /// The smallest power of two that is at least `n` (and at least 1).
    public static func powerOfTwo(atLeast n: Int) -> Int {
        var value = 1
        while value < n { value <<= 1 }
        return value
    }
}

// MARK: - Statistics and control, callable from any thread

extension SPSCRing {
    /// Slots currently occupied: buffered, or claimed by a consumer that is still reading them. A snapshot that
    /// may be stale by the time it is read; not an atomic operation.
    public var approximateCount: Int {
        // relaxed: monitoring only; the loads are not a consistent triple and need not be.
        let h = head.load(ordering: .relaxed)
        let r = reading.load(ordering: .relaxed)
        let t = tail.load(ordering: .relaxed)
        return max(0, min(capacity, t &- min(h, r)))
    }

    /// Slots the producer offered: accepted plus rejected.
    public var receivedCount: Int {
        // relaxed: monotonic counters read for statistics.
        tail.load(ordering: .relaxed) &+ discarded.load(ordering: .relaxed)
    }

    /// Slots handed to the consumer so far.
    public var poppedCount: Int { popped.load(ordering: .relaxed) }  // relaxed: statistics only

    /// Slots lost to overflow so far: dropped from the ring plus discarded before entering it.
    public var droppedCount: Int {
        droppedOldest.load(ordering: .relaxed) &+ discarded.load(ordering: .relaxed)  // relaxed: statistics
    }

    /// The most slots seen buffered at once (by the consumer before a pop, or `capacity` on overflow).
    public var peakOccupancy: Int { peak.load(ordering: .relaxed) }  // relaxed: statistics only

    /// Asks the producer to stop; it sees it through ``isStopRequested``. Any thread.
    public func requestStop() {
        // releasing: whatever the requester wrote before asking is visible to a producer that sees the flag.
        stopRequested.store(1, ordering: .releasing)
        wakeConsumerIfAsleep()
        wakeProducerIfWaiting(always: true)
        producerWakeup.signal()
    }

    /// Whether ``requestStop()`` was called. Any thread; producers poll it between pushes.
    public var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) != 0 }

    /// Producer side, for sources whose samples arrive on other threads (a transport's callbacks) and whose own
    /// thread only waits: blocks until ``requestStop()``, ``interruptProducerWait()`` or `timeout` seconds (nil:
    /// no limit), then returns ``isStopRequested``.
    public func waitForStopRequest(timeout: Double? = nil) -> Bool {
        if isStopRequested { return true }
        if let timeout {
            _ = producerWakeup.wait(timeout: .now() + max(0, timeout))
        } else {
            producerWakeup.wait()
        }
        return isStopRequested
    }

    /// Wakes a producer blocked in ``waitForStopRequest(timeout:)`` early (something it must act on happened: a
    /// reconnection, for example). Any thread.
    public func interruptProducerWait() { producerWakeup.signal() }

    /// Producer only: no more pushes will follow. The consumer drains what is left and then sees
    /// ``isFinished``.
    public func closeProducer() {
        // releasing: ordered after the last `tail` store, so a consumer that sees `closed` also sees every slot.
        closed.store(1, ordering: .releasing)
        wakeConsumerIfAsleep()
    }

    /// Consumer only: the producer has closed and every slot has been popped.
    public var isFinished: Bool {
        // acquiring on `closed` first: it synchronises with `closeProducer`, so the `tail` read after it is final.
        guard closed.load(ordering: .acquiring) != 0 else { return false }
        return tail.load(ordering: .acquiring) == head.load(ordering: .acquiring)
    }

    @inlinable
    func raisePeak(to occupancy: Int) {
        // Either side may raise it; a CAS loop keeps the maximum. Runs only when a new peak is seen.
        var current = peak.load(ordering: .relaxed)
        while occupancy > current {
            let (exchanged, original) = peak.weakCompareExchange(
                expected: current, desired: occupancy, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}

extension UnsafeAtomic where Value == Int {
    /// Adds to a counter that only the calling thread writes: a plain load and store, no locked instruction.
    /// relaxed: the counters are statistics; nothing else is published through them.
    @inlinable
    func add(_ amount: Int) {
        store(load(ordering: .relaxed) &+ amount, ordering: .relaxed)
    }
}
