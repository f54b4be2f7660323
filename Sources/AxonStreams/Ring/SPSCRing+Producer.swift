import Atomics

// Producer side: only the producer thread calls anything in this file.

extension SPSCRing {
    /// Pushes one element (rings of width 1). Producer thread only.
    ///
    /// - Returns: `true` if the element was stored. With `.dropOldest` the oldest unread element may have been
    ///   discarded to make room (counted in ``droppedCount``); `false` means this element was rejected (also
    ///   counted).
    /// - Complexity: O(1); wait-free unless the ring is full under `.dropOldest`, where it retries at most as
    ///   often as the consumer claims slots concurrently.
    @inlinable
    @discardableResult
    public func push(_ element: Element) -> Bool {
        precondition(width == 1, "push(_:) is for rings of width 1; use push(contentsOf:) for slots")
        // relaxed: only this thread writes `tail`.
        let t = tail.load(ordering: .relaxed)
        guard reserve(1, tail: t) == 1 else {
            discarded.add(1)  // relaxed: statistics counter
            return false
        }
        (storage + (t & mask)).initialize(to: element)
        // releasing: publishes the slot's contents to the consumer's acquiring load of `tail`.
        tail.store(t &+ 1, ordering: .releasing)
        wakeConsumerIfAsleep()
        return true
    }

    /// Pushes whole slots: `elements.count` must be a multiple of ``width``. Producer thread only.
    ///
    /// Under `.dropOldest` a batch larger than the ring keeps only its last ``capacity`` slots (the rest count as
    /// dropped); under `.rejectNewest` the slots that do not fit are rejected and counted.
    /// - Returns: the number of slots stored.
    /// - Complexity: O(elements.count): at most two contiguous copies.
    @inlinable
    @discardableResult
    public func push(contentsOf elements: UnsafeBufferPointer<Element>) -> Int {
        precondition(elements.count % width == 0, "a push must hold whole slots")
        guard var source = elements.baseAddress else { return 0 }
        var slots = elements.count / width
        if slots > capacity && overflowPolicy == .dropOldest {
            let skipped = slots - capacity
            discarded.add(skipped)  // never entered the ring, like a rejected slot
            raisePeak(to: capacity)
            source += skipped * width
            slots = capacity
        }
        let t = tail.load(ordering: .relaxed)  // relaxed: only this thread writes `tail`
        let accepted = reserve(slots, tail: t)
        copyIn(from: source, slots: accepted, at: t)
        tail.store(t &+ accepted, ordering: .releasing)  // releasing: publishes the copied slots
        wakeConsumerIfAsleep()
        if accepted < slots {
            discarded.add(slots - accepted)  // relaxed: statistics
        }
        return accepted
    }

    /// How many slots a push could store right now without engaging the overflow policy. Producer thread only.
    ///
    /// The consumer only ever frees slots, so the answer can only grow until this thread pushes: a producer that
    /// must not lose data (a file replay) pushes at most this many slots and never sees a rejection or a drop.
    /// - Complexity: O(1): two acquiring loads.
    public var producerFreeSlots: Int {
        let t = tail.load(ordering: .relaxed)  // relaxed: only this thread writes `tail`
        // acquiring, `head` before `reading`, as in `reserveSlow`: slots the consumer is still reading are not free.
        let h = head.load(ordering: .acquiring)
        let r = reading.load(ordering: .acquiring)
        let lowest = min(h, r)
        control.storeBytes(of: lowest, toByteOffset: Self.producerCachedLowestOffset, as: Int.self)
        return capacity - (t &- lowest)
    }

    @inlinable
    func copyIn(from source: UnsafePointer<Element>, slots: Int, at index: Int) {
        guard slots > 0 else { return }
        let position = index & mask
        let first = min(slots, capacity - position)
        (storage + position * width).initialize(from: source, count: first * width)
        if first < slots {
            storage.initialize(from: source + first * width, count: (slots - first) * width)
        }
    }

    /// How many of `wanted` slots may be written at `t`, after making room under the overflow policy.
    @inlinable
    func reserve(_ wanted: Int, tail t: Int) -> Int {
        let cachedLowest = control.load(fromByteOffset: Self.producerCachedLowestOffset, as: Int.self)
        if t &+ wanted &- cachedLowest <= capacity { return wanted }
        return reserveSlow(wanted, tail: t)
    }

    @usableFromInline
    @inline(never)
    func reserveSlow(_ wanted: Int, tail t: Int) -> Int {
        precondition(wanted <= capacity || overflowPolicy == .rejectNewest)
        while true {
            // acquiring, `head` before `reading`: if we see a `head` the consumer moved with its claim, we are
            // guaranteed to see the `reading` it stored before claiming, so we never overwrite slots it is reading;
            // and a `notReading` we see synchronises with the consumer's release after it finished reading.
            let h = head.load(ordering: .acquiring)
            let r = reading.load(ordering: .acquiring)
            let lowest = min(h, r)
            control.storeBytes(of: lowest, toByteOffset: Self.producerCachedLowestOffset, as: Int.self)
            let free = capacity - (t &- lowest)
            if wanted <= free { return wanted }
            if overflowPolicy == .rejectNewest || r != Self.notReading {
                // A full ring under `.rejectNewest`, or the consumer is reading the oldest slots right now.
                raisePeak(to: capacity)
                return free
            }
            // Nobody is reading: discard the oldest `needed` unread slots. `lowest == h`, and because
            // `wanted <= capacity`, `needed <= t - h`: only published, unclaimed slots are dropped.
            let needed = wanted - free
            // acquiringAndReleasing: the CAS races with the consumer's claim on the same word; exactly one wins.
            let (exchanged, _) = head.compareExchange(
                expected: h, desired: h &+ needed, ordering: .acquiringAndReleasing)
            if exchanged {
                var index = h
                while index != h &+ needed {
                    (storage + (index & mask) * width).deinitialize(count: width)
                    index &+= 1
                }
                droppedOldest.add(needed)  // relaxed: statistics counter
                raisePeak(to: capacity)
                control.storeBytes(of: h &+ needed, toByteOffset: Self.producerCachedLowestOffset, as: Int.self)
                return wanted
            }
            // The consumer claimed slots between our loads and the CAS: look again.
        }
    }
}

extension SPSCRing where Element: BitwiseCopyable {
    /// Writes one slot in place, without a staging copy. Producer thread only.
    ///
    /// `fill` receives the slot's ``width`` elements and must assign every one of them.
    /// - Returns: `true` if stored (see ``push(_:)`` for the overflow semantics).
    @inlinable
    @discardableResult
    public func pushSlot(_ fill: (UnsafeMutableBufferPointer<Element>) -> Void) -> Bool {
        let t = tail.load(ordering: .relaxed)  // relaxed: only this thread writes `tail`
        guard reserve(1, tail: t) == 1 else {
            discarded.add(1)  // relaxed: statistics counter
            return false
        }
        fill(UnsafeMutableBufferPointer(start: storage + (t & mask) * width, count: width))
        tail.store(t &+ 1, ordering: .releasing)  // releasing: publishes the slot's contents
        wakeConsumerIfAsleep()
        return true
    }

    /// Writes up to `count` slots in place and publishes them at once: one index load, one release store and one
    /// wake-up check for the whole batch instead of one per slot. Producer thread only.
    ///
    /// `fill(i, slot)` receives the `i`-th slot's ``width`` elements (in order, `i` from 0) and must assign every
    /// one of them. Slots that do not fit are handled by the overflow policy as in ``push(contentsOf:)``: under
    /// `.rejectNewest` the last ones are rejected (counted, and `fill` is not called for them).
    /// - Precondition: `count <= capacity`.
    /// - Returns: the number of slots stored (the first that many of the batch).
    /// - Complexity: O(count × width); no allocation.
    @inlinable
    @discardableResult
    public func pushSlots(_ count: Int, _ fill: (Int, UnsafeMutablePointer<Element>) -> Void) -> Int {
        precondition(count >= 0 && count <= capacity, "a batch of slots must fit in the ring")
        guard count > 0 else { return 0 }
        let t = tail.load(ordering: .relaxed)  // relaxed: only this thread writes `tail`
        let accepted = reserve(count, tail: t)
        for i in 0..<accepted {
            fill(i, storage + ((t &+ i) & mask) * width)
        }
        tail.store(t &+ accepted, ordering: .releasing)  // releasing: publishes the slots' contents
        wakeConsumerIfAsleep()
        if accepted < count {
            discarded.add(count - accepted)  // relaxed: statistics
        }
        return accepted
    }
}
