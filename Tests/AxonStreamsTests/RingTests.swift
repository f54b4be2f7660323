import Testing

@testable import AxonStreams

/// Exhaustive single-thread checks of the ring against a plain array model, around the wrap point.
@Suite("Ring: model checks")
struct RingModelTests {
    static let capacities = [1, 2, 4, 8, 16]

    /// Every (capacity, width, start offset, batch size, policy): pushes a batch, pops it back in every split,
    /// and compares contents and counters with a model.
    @Test(arguments: capacities, [1, 3])
    func batchesAroundTheWrapPoint(capacity: Int, width: Int) {
        for policy in OverflowPolicy.allCases {
            for offset in 0...(2 * capacity) {
                for batch in 0...(capacity + 2) {
                    for lending in [false, true] {
                        checkScenario(
                            capacity: capacity, width: width, policy: policy, offset: offset, batch: batch,
                            lending: lending)
                    }
                }
            }
        }
    }

    /// `lending`: read back with `withOldestSlots` (in place, contiguous runs) instead of `pop(into:)`.
    private func checkScenario(
        capacity: Int, width: Int, policy: OverflowPolicy, offset: Int, batch: Int, lending: Bool
    ) {
        let ring = SPSCRing<Int>(capacity: capacity, width: width, overflow: policy)
        var next = 0
        var model: [Int] = []  // slot ids in the ring, oldest first
        var dropped = 0
        func slot(_ id: Int) -> [Int] { (0..<width).map { id * 100 + $0 } }

        // Move the indices to `offset` so the batch straddles the wrap point in every position.
        for _ in 0..<offset {
            let values = slot(next)
            next += 1
            _ = values.withUnsafeBufferPointer { ring.push(contentsOf: $0) }
            var out = [Int](repeating: -1, count: width)
            let got = out.withUnsafeMutableBufferPointer { ring.pop(into: $0) }
            #expect(got == 1 && out == values)
        }
        let ids = Array(next..<(next + batch))
        let flat = ids.flatMap(slot)
        let stored = flat.withUnsafeBufferPointer { ring.push(contentsOf: $0) }
        switch policy {
        case .rejectNewest:
            #expect(stored == min(batch, capacity))
            model = Array(ids.prefix(capacity))
            dropped = max(0, batch - capacity)
        case .dropOldest:
            #expect(stored == min(batch, capacity))
            model = Array(ids.suffix(capacity))
            dropped = max(0, batch - capacity)
        }
        #expect(ring.droppedCount == dropped, "capacity \(capacity) width \(width) offset \(offset) batch \(batch)")
        #expect(ring.approximateCount == model.count)
        #expect(ring.receivedCount == offset + batch)

        // Pop back in chunks of 1, 2, 3, … slots and compare.
        var popped: [Int] = []
        var chunk = 1
        while true {
            var out = [Int](repeating: -1, count: chunk * width)
            let got: Int
            if lending {
                got = ring.withOldestSlots(upTo: chunk) { first, count in
                    for i in 0..<(count * width) { out[i] = first[i] }
                }
            } else {
                got = out.withUnsafeMutableBufferPointer { ring.pop(into: $0) }
            }
            if got == 0 { break }
            #expect(got <= chunk)
            for s in 0..<got {
                let values = Array(out[(s * width)..<((s + 1) * width)])
                #expect(values == slot(values[0] / 100))
                popped.append(values[0] / 100)
            }
            chunk += 1
        }
        #expect(popped == model, "capacity \(capacity) width \(width) offset \(offset) batch \(batch) \(policy)")
        #expect(ring.isEmpty)
        #expect(ring.poppedCount == offset + model.count)
    }

    /// Lent slots are contiguous (a run stops at the end of the storage), and the producer cannot reuse them while
    /// they are lent: a full ring rejects the newest slots under either policy, and nothing lent is dropped.
    @Test(arguments: OverflowPolicy.allCases)
    func lentSlotsAreContiguousAndKeptFromTheProducer(policy: OverflowPolicy) {
        let ring = SPSCRing<Double>(capacity: 8, width: 2, overflow: policy)
        func push(_ ids: Range<Int>) -> Int {
            let flat = ids.flatMap { [Double($0), Double($0) + 0.5] }
            return flat.withUnsafeBufferPointer { ring.push(contentsOf: $0) }
        }
        #expect(push(0..<6) == 6)
        #expect(ring.withOldestSlots(upTo: 5) { _, _ in } == 5)  // indices now at 5
        #expect(push(6..<13) == 7)  // slots 5…12: 5, 6, 7 at the end of the storage, 8…12 wrapped to its start
        var seen: [Double] = []
        var rejectedWhileLent = 0
        let lent = ring.withOldestSlots(upTo: 8) { first, count in
            for slot in 0..<count {
                #expect(first[2 * slot + 1] == first[2 * slot] + 0.5)
                seen.append(first[2 * slot])
            }
            // The ring is full and its three oldest slots are lent: the producer finds no room under either policy.
            rejectedWhileLent = 1 - push(13..<14)
        }
        #expect(lent == 3 && seen == [5, 6, 7])
        #expect(rejectedWhileLent == 1)
        #expect(ring.droppedCount == 1)
        var rest: [Double] = []
        while ring.withOldestSlots(upTo: 8, { first, count in
            for slot in 0..<count { rest.append(first[2 * slot]) }
        }) > 0 {}
        #expect(rest == [8, 9, 10, 11, 12])
        #expect(ring.isEmpty && ring.poppedCount == 13)
    }

    @Test(arguments: OverflowPolicy.allCases)
    func singleElementPushPopAcrossManyWraps(policy: OverflowPolicy) {
        let ring = SPSCRing<Double>(capacity: 4, overflow: policy)
        for round in 0..<100 {
            for k in 0..<3 { #expect(ring.push(Double(round * 10 + k))) }
            for k in 0..<3 { #expect(ring.pop() == Double(round * 10 + k)) }
            #expect(ring.pop() == nil)
        }
        #expect(ring.droppedCount == 0)
        #expect(ring.peakOccupancy == 3)
    }

    /// A stalled consumer and a ring of N: pushing N + k elements drops exactly k, and the right ones.
    @Test(arguments: OverflowPolicy.allCases, [1, 5, 64])
    func overflowDropsExactlyTheExcess(policy: OverflowPolicy, excess k: Int) {
        let n = 64
        let ring = SPSCRing<Double>(capacity: n, overflow: policy)
        var accepted = 0
        for value in 0..<(n + k) where ring.push(Double(value)) { accepted += 1 }
        #expect(ring.droppedCount == k)
        #expect(ring.receivedCount == n + k)
        #expect(ring.peakOccupancy == n)
        var delivered: [Double] = []
        while let value = ring.pop() { delivered.append(value) }
        let expected = policy == .dropOldest ? Array(k..<(n + k)) : Array(0..<n)
        #expect(delivered == expected.map(Double.init))
        #expect(accepted == (policy == .dropOldest ? n + k : n))
    }

    /// Elements with reference-counted storage are moved, never copied twice or leaked, even when dropped.
    @Test(arguments: OverflowPolicy.allCases)
    func nonTrivialElementsSurviveOverflow(policy: OverflowPolicy) {
        let ring = SPSCRing<EventSample<String>>(capacity: 8, overflow: policy)
        for i in 0..<20 {
            ring.push(EventSample(payload: "event \(i) " + String(repeating: "x", count: 40), arrivalTime: Double(i)))
        }
        var kept: [EventSample<String>] = []
        while let event = ring.pop() { kept.append(event) }
        let firstKept = policy == .dropOldest ? 12 : 0
        #expect(ring.droppedCount == 12)
        #expect(kept.map(\.arrivalTime) == (firstKept..<(firstKept + 8)).map(Double.init))
        #expect(kept.allSatisfy { $0.payload.hasPrefix("event \(Int($0.arrivalTime)) ") && $0.payload.count > 40 })
        // Push again after the drain to exercise deinitialised slots being reused.
        for i in 0..<8 { ring.push(EventSample(payload: "again \(i)", arrivalTime: Double(100 + i))) }
        var times: [Double] = []
        while let event = ring.pop() { times.append(event.arrivalTime) }
        #expect(times == (100..<108).map(Double.init))
    }

    /// The producer's free-slot count follows pushes and pops, so a producer that writes only that many never
    /// triggers the overflow policy.
    @Test(arguments: OverflowPolicy.allCases)
    func producerFreeSlotsTracksOccupancy(policy: OverflowPolicy) {
        let ring = SPSCRing<Double>(capacity: 8, overflow: policy)
        #expect(ring.producerFreeSlots == 8)
        for i in 0..<5 { ring.push(Double(i)) }
        #expect(ring.producerFreeSlots == 3)
        _ = ring.pop()
        _ = ring.pop()
        #expect(ring.producerFreeSlots == 5)
        for i in 0..<5 { #expect(ring.push(Double(10 + i))) }
        #expect(ring.producerFreeSlots == 0)
        #expect(ring.droppedCount == 0)
    }

    @Test func powerOfTwoRounding() {
        #expect(SPSCRing<Int>.powerOfTwo(atLeast: 0) == 1)
        #expect(SPSCRing<Int>.powerOfTwo(atLeast: 1) == 1)
        #expect(SPSCRing<Int>.powerOfTwo(atLeast: 250) == 256)
        #expect(SPSCRing<Int>.powerOfTwo(atLeast: 4096) == 4096)
    }

    @Test func capacityMustBeAPowerOfTwo() async {
        await #expect(processExitsWith: .failure) {
            _ = SPSCRing<Int>(capacity: 6, overflow: .rejectNewest)
        }
    }

    @Test func pushMustHoldWholeSlots() async {
        await #expect(processExitsWith: .failure) {
            let ring = SPSCRing<Int>(capacity: 4, width: 3, overflow: .rejectNewest)
            _ = [1, 2].withUnsafeBufferPointer { ring.push(contentsOf: $0) }
        }
    }
}

/// Two threads hammering one ring: order, completeness and the counters must hold under contention.
@Suite("Ring: two-thread stress", .serialized)
struct RingStressTests {
    static let total = 2_000_000

    /// A lossless producer (retries when the ring is full) and a consumer: every value arrives, in order.
    @Test(arguments: OverflowPolicy.allCases, [1, 7, 256])
    func everyValueArrivesInOrder(policy: OverflowPolicy, batch: Int) async {
        let ring = SPSCRing<Int>(capacity: 1024, overflow: policy)
        let producer = Task.detached {
            var next = 0
            var chunk = [Int](repeating: 0, count: batch)
            while next < Self.total {
                let n = min(batch, Self.total - next)
                for i in 0..<n { chunk[i] = next + i }
                // Retry only when the ring is full, so nothing is lost: with dropOldest, wait for room first.
                while ring.capacity - ring.approximateCount < n { await Task.yield() }
                let stored = chunk.withUnsafeBufferPointer { ring.push(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
                next += stored
            }
            ring.closeProducer()
        }
        var expected = 0
        var out = [Int](repeating: 0, count: 300)
        var ordered = true
        while !ring.isFinished {
            let got = out.withUnsafeMutableBufferPointer { ring.pop(into: $0) }
            for i in 0..<got where out[i] != expected + i { ordered = false }
            expected += got
            if got == 0 { await Task.yield() }
        }
        await producer.value
        #expect(ordered)
        #expect(expected == Self.total)
        #expect(ring.droppedCount == 0)
        #expect(ring.poppedCount == Self.total)
    }

    /// A producer that never waits: what arrives is strictly increasing, and arrived + dropped = sent.
    @Test(arguments: OverflowPolicy.allCases)
    func lossyProducerAccountsForEveryValue(policy: OverflowPolicy) async {
        let ring = SPSCRing<Int>(capacity: 64, overflow: policy)
        let producer = Task.detached {
            for value in 0..<Self.total { ring.push(value) }
            ring.closeProducer()
        }
        var last = -1
        var increasing = true
        var arrived = 0
        while !ring.isFinished {
            if let value = ring.pop() {
                if value <= last { increasing = false }
                last = value
                arrived += 1
            }
        }
        await producer.value
        #expect(increasing)
        #expect(arrived + ring.droppedCount == Self.total)
        #expect(ring.receivedCount == Self.total)
    }
}
