// AxonC — the results an engine made and the caller has not taken yet.

/// A first-in first-out queue of C structs that keeps its storage: taken elements are skipped by an index and the
/// array is emptied (capacity kept) once all are taken, so a caller that takes after every push never makes it
/// allocate again.
///
/// Threading: a value owned by one engine handle.
struct ResultQueue<Element> {
    private var elements: [Element] = []
    private var taken = 0

    /// Elements waiting.
    var count: Int { elements.count - taken }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Copies up to `capacity` of the oldest elements into `output` and removes them; returns how many.
    mutating func take(into output: UnsafeMutablePointer<Element>, capacity: Int) -> Int {
        let moved = min(capacity, count)
        guard moved > 0 else { return 0 }
        elements.withUnsafeBufferPointer { source in
            output.update(from: source.baseAddress! + taken, count: moved)
        }
        drop(moved)
        return moved
    }

    /// Removes the `dropped` oldest elements.
    mutating func drop(_ dropped: Int) {
        taken += min(dropped, count)
        if taken == elements.count {
            elements.removeAll(keepingCapacity: true)
            taken = 0
        }
    }
}
