import Atomics

// Consumer side: only the consumer thread calls anything in this file.

extension SPSCRing {
    /// Pops one element (rings of width 1). Consumer thread only.
    ///
    /// - Returns: the oldest buffered element, or `nil` when the ring is empty.
    /// - Complexity: O(1).
    @inlinable
    public func pop() -> Element? {
        precondition(width == 1, "pop() is for rings of width 1; use pop(into:) for slots")
        guard let start = claim(upTo: 1) else { return nil }
        let element = (storage + (start & mask)).move()
        release(from: start, count: 1)
        return element
    }

    /// Moves up to `buffer.count / width` whole slots into `buffer`, oldest first. Consumer thread only.
    ///
    /// `buffer` must hold initialized elements; they are replaced (for trivial elements such as `Double`, any
    /// memory will do).
    /// - Returns: the number of slots moved (elements moved = slots × ``width``).
    /// - Complexity: O(elements moved): at most two contiguous moves.
    @inlinable @inline(__always)  // into the caller's loop: a call per single-slot pop costs a sixth of its time
    public func pop(into buffer: UnsafeMutableBufferPointer<Element>) -> Int {
        guard let target = buffer.baseAddress, buffer.count >= width else { return 0 }
        var total = 0
        // At most two claims: the ring may have been refilled between them but one pass over each part is enough.
        while total * width + width <= buffer.count {
            let wanted = (buffer.count - total * width) / width
            guard let start = claim(upTo: wanted) else { break }
            let available = claimedCount
            let position = start & mask
            let first = min(available, capacity - position)
            Self.move(from: storage + position * width, to: target + total * width, count: first * width)
            if first < available {
                Self.move(from: storage, to: target + (total + first) * width, count: (available - first) * width)
            }
            release(from: start, count: available)
            total += available
        }
        return total
    }

    /// Lends up to `maxSlots` of the oldest published slots to `body` in place — contiguous in memory, so fewer
    /// than are published when the run reaches the end of the storage — and hands them back to the producer when
    /// `body` returns. Consumer thread only.
    ///
    /// `body(first, count)` receives the first slot's first element and the number of slots (`count × width`
    /// elements); it may read and modify them but must not keep the pointer. Nothing is copied: this is `pop`
    /// for a consumer whose work on a batch can run on the ring's memory. While `body` runs the producer cannot
    /// reuse the lent slots, so keep it short under `.dropOldest`: a full ring then rejects the newest slots
    /// instead of dropping the lent ones (counted in ``droppedCount`` like any rejection).
    /// - Returns: the number of slots lent (0 when the ring is empty; `body` is not called).
    /// - Complexity: O(1) plus `body`.
    @inlinable
    public func withOldestSlots(upTo maxSlots: Int, _ body: (UnsafeMutablePointer<Element>, Int) -> Void) -> Int {
        guard maxSlots >= 1, let start = claim(upTo: maxSlots, contiguous: true) else { return 0 }
        let count = claimedCount
        body(storage + (start & mask) * width, count)
        release(from: start, count: count)
        return count
    }

    /// Moves `count` elements out of the ring. A frame or two (the single-frame hand-off) is copied inline: a
    /// `memmove` call costs more than the copy itself at that size.
    @inlinable
    static func move(from source: UnsafeMutablePointer<Element>, to target: UnsafeMutablePointer<Element>, count: Int) {
        if _isPOD(Element.self), count <= 32 {
            for i in 0..<count { (target + i).pointee = (source + i).pointee }
        } else {
            target.moveUpdate(from: source, count: count)
        }
    }

    /// Whether the ring looks empty to the consumer right now. Consumer thread only.
    @inlinable
    public var isEmpty: Bool {
        tail.load(ordering: .acquiring) == head.load(ordering: .acquiring)
    }

    /// Slots claimed by the last successful `claim`, kept in the consumer's block.
    @inlinable
    var claimedCount: Int {
        control.load(fromByteOffset: Self.consumerCachedTailOffset + 8, as: Int.self)
    }

    /// Claims up to `wanted` published slots — with `contiguous`, no further than the end of the storage — and
    /// returns the index of the first one, or `nil` if the ring is empty.
    // Always inlined: with `contiguous` a constant at each call site the single-slot pop keeps its short path.
    @inlinable @inline(__always)
    func claim(upTo wanted: Int, contiguous: Bool = false) -> Int? {
        while true {
            // rejectNewest: only we write `head`, relaxed is enough. dropOldest: the producer may move it when it
            // drops slots; acquiring pairs with its CAS so we do not read slots it has already reused.
            let h = overflowPolicy == .dropOldest ? head.load(ordering: .acquiring) : head.load(ordering: .relaxed)
            var t = control.load(fromByteOffset: Self.consumerCachedTailOffset, as: Int.self)
            // `pop` claims twice when the cached tail shows less than it wants; a lent run is claimed once, so it
            // looks at the producer's tail whenever the cached one cannot fill it.
            let reachable = contiguous ? min(wanted, capacity &- (h & mask)) : 1
            if t &- h < reachable {
                // acquiring: pairs with the producer's releasing store of `tail`, making the slots' contents
                // visible before we read them.
                t = tail.load(ordering: .acquiring)
                control.storeBytes(of: t, toByteOffset: Self.consumerCachedTailOffset, as: Int.self)
                if t == h { return nil }
                raisePeakIfHigher(t &- h)
            }
            let count = min(t &- h, contiguous ? reachable : wanted)
            control.storeBytes(of: count, toByteOffset: Self.consumerCachedTailOffset + 8, as: Int.self)
            if overflowPolicy == .rejectNewest { return h }
            // Claim protocol for dropOldest: announce which slot we will read, then take the slots with a CAS
            // on `head`. relaxed store: the releasing CAS below orders it before the claim becomes visible.
            reading.store(h, ordering: .relaxed)
            let (exchanged, _) = head.compareExchange(
                expected: h, desired: h &+ count, ordering: .acquiringAndReleasing)
            if exchanged { return h }
            // The producer dropped the oldest slots meanwhile: we read nothing, withdraw and look again.
            reading.store(Self.notReading, ordering: .relaxed)
        }
    }

    /// Hands the claimed slots back to the producer once they have been read.
    @inlinable
    func release(from start: Int, count: Int) {
        if overflowPolicy == .rejectNewest {
            // releasing: our reads of the slots happen before the producer (acquiring `head`) reuses them.
            head.store(start &+ count, ordering: .releasing)
        } else {
            // `head` moved with the claim; releasing: our reads happen before a producer that sees `notReading`.
            reading.store(Self.notReading, ordering: .releasing)
        }
        popped.add(count)  // relaxed: statistics; only we write it
        wakeProducerIfWaiting()
    }

    @inlinable
    func raisePeakIfHigher(_ occupancy: Int) {
        // relaxed pre-check keeps the common path to one plain load.
        if occupancy > peak.load(ordering: .relaxed) { raisePeak(to: occupancy) }
    }
}
