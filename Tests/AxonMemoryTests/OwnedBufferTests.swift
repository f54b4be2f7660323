import AxonMemory
import Testing

/// Counts the instances alive, so a test can see that a buffer deinitialises each element exactly once.
private final class Tracked {
    nonisolated(unsafe) static var alive = 0
    let value: Int
    init(_ value: Int) {
        self.value = value
        Self.alive += 1
    }
    deinit { Self.alive -= 1 }
}

/// A class holding buffers, as the engine does: they go away with it.
private final class Holder {
    let items: OwnedBuffer<Tracked>
    let numbers = OwnedBuffer<Double>(repeating: 0, count: 8)
    init(count: Int) { items = OwnedBuffer(copying: (0..<count).map { Tracked($0) }) }
}

// `Tracked.alive` is one counter for the whole suite: its tests run one after another.
@Suite(.serialized)
struct OwnedBufferTests {
    @Test func initialisesEveryElementToTheValue() {
        let buffer = OwnedBuffer<Double>(repeating: 2.5, count: 5)
        #expect(buffer.count == 5)
        let full = buffer.isEmpty
        #expect(!full)
        #expect(buffer.indices == 0..<5)
        #expect(buffer.array == [2.5, 2.5, 2.5, 2.5, 2.5])
        let empty = OwnedBuffer<Int>(repeating: 1, count: 0)
        let isEmpty = empty.isEmpty
        #expect(isEmpty)
        #expect(empty.array == [])
    }

    @Test func writesThroughTheSubscriptAndTheClosures() {
        let buffer = OwnedBuffer<Int>(repeating: 0, count: 4)
        buffer[2] = 7
        buffer.withUnsafeMutableBufferPointer { $0[0] = 3 }
        let sum = buffer.withUnsafeBufferPointer { $0.reduce(0, +) }
        #expect(sum == 10)
        #expect(buffer.array == [3, 0, 7, 0])
        buffer.update(repeating: 9)
        #expect(buffer.array == [9, 9, 9, 9])
        buffer.update(fromContentsOf: [1, 2, 3, 4])
        #expect(buffer.array == [1, 2, 3, 4])
        #expect(OwnedBuffer(copying: [5, 6]).array == [5, 6])
    }

    @Test func refusesANegativeCount() async {
        await #expect(processExitsWith: .failure) { _ = OwnedBuffer<Int>(repeating: 0, count: -1) }
        await #expect(processExitsWith: .failure) {
            OwnedBuffer<Int>(repeating: 0, count: 2).update(fromContentsOf: [1])
        }
    }

    @Test func closuresPassTheirTypedErrorThrough() {
        enum Refusal: Error { case refused }
        let buffer = OwnedBuffer<Int>(repeating: 1, count: 3)
        #expect(throws: Refusal.refused) {
            try buffer.withUnsafeBufferPointer { (_) throws(Refusal) -> Int in throw .refused }
        }
    }

    /// Deinitialising each element exactly once: a leak leaves instances alive, a double deinitialisation drives the
    /// count below its start (and a double free crashes the test process).
    @Test func freesEachElementOnceWhenItsOwnerGoesAway() {
        let before = Tracked.alive
        do {
            let buffer = OwnedBuffer(repeating: Tracked(1), count: 3)
            #expect(Tracked.alive == before + 1)  // three references to one instance
            #expect(buffer[2].value == 1)
            buffer[0] = Tracked(2)
            buffer[1] = Tracked(3)
            #expect(Tracked.alive == before + 3)
            buffer.update(repeating: Tracked(4))
            #expect(Tracked.alive == before + 1)
        }
        #expect(Tracked.alive == before)
        do {
            let holder = Holder(count: 10)
            #expect(Tracked.alive == before + 10)
            #expect(holder.items[9].value == 9)
            #expect(holder.numbers.count == 8)
        }
        #expect(Tracked.alive == before)
        func consume(_ buffer: consuming OwnedBuffer<Tracked>) -> Int { buffer.count }
        #expect(consume(OwnedBuffer(copying: [Tracked(5), Tracked(6)])) == 2)
        #expect(Tracked.alive == before)
    }
}
