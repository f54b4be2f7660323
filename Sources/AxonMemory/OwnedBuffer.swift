// AxonMemory — a fixed-size buffer that owns its memory and frees it itself.

/// A fixed number of elements in memory this value owns: allocated and initialised once, deinitialised and freed
/// when the value goes away. The buffer cannot be copied (`~Copyable`), so exactly one owner frees it; other code
/// reaches the elements through the subscript or, for bulk work, through the closure-scoped
/// ``withUnsafeBufferPointer(_:)`` and ``withUnsafeMutableBufferPointer(_:)``, whose pointers are valid only inside the
/// closure.
///
/// The element count never changes, and writing an element does not change which memory the buffer owns, so writes
/// go through a borrowed buffer (the subscript's setter and ``withUnsafeMutableBufferPointer(_:)`` are nonmutating):
/// a class keeps its buffers in `let` properties and its real-time path pays no exclusivity check per access. Every
/// accessor is inlinable, so a non-escaping closure passed to it needs no heap-allocated context, even from another
/// module.
///
/// Threading: not thread-safe. The owner's thread reads and writes it; a buffer handed to another thread must not be
/// touched by the first one any more (it is not `Sendable`: a type that shares one across threads says why it may).
///
/// Cost: ``init(repeating:count:)`` allocates once; every accessor is O(1) and allocates nothing.
///
///     final class Smoother {
///         private let previous = OwnedBuffer<Double>(repeating: 0, count: 4)
///         func step(_ values: UnsafeBufferPointer<Double>) {
///             for channel in 0..<previous.count { previous[channel] = 0.5 * (previous[channel] + values[channel]) }
///         }
///     }                                                    // the memory is freed with the Smoother
@frozen
public struct OwnedBuffer<Element>: ~Copyable {
    @usableFromInline
    internal let storage: UnsafeMutableBufferPointer<Element>

    /// Allocates `count` elements, each initialised to `value`. An empty buffer allocates nothing (the pointers it
    /// lends then have no base address).
    ///
    /// - Precondition: `count >= 0`.
    /// - Complexity: one allocation, O(`count`) to initialise.
    @inlinable
    public init(repeating value: Element, count: Int) {
        precondition(count >= 0, "a buffer cannot have a negative count")
        storage = count == 0 ? UnsafeMutableBufferPointer(start: nil, count: 0) : .allocate(capacity: count)
        storage.initialize(repeating: value)
    }

    /// Allocates as many elements as `elements` has and initialises them with its values, in order.
    ///
    /// - Complexity: one allocation (none when `elements` is empty), O(n) to copy.
    @inlinable
    public init(copying elements: some Collection<Element>) {
        let count = elements.count
        storage = count == 0 ? UnsafeMutableBufferPointer(start: nil, count: 0) : .allocate(capacity: count)
        let (_, initialized) = storage.initialize(from: elements)
        precondition(initialized == storage.count, "the collection's count changed while it was copied")
    }

    @inlinable
    deinit {
        storage.deinitialize()
        storage.deallocate()  // nothing to free for an empty buffer: its base address is nil
    }

    /// The number of elements, fixed at initialisation.
    @inlinable
    public var count: Int { storage.count }

    /// Whether the buffer has no elements.
    @inlinable
    public var isEmpty: Bool { storage.isEmpty }

    /// The valid indices, `0..<count`.
    @inlinable
    public var indices: Range<Int> { 0..<storage.count }

    /// The element at `index`; writing it needs only a borrowed buffer (see the type's discussion).
    ///
    /// - Precondition: `index` is in `0..<count` (checked in debug builds).
    @inlinable
    public subscript(index: Int) -> Element {
        @inline(__always) get { storage[index] }
        @inline(__always) nonmutating set { storage[index] = newValue }
    }

    /// Calls `body` with the elements, read-only. The pointer is valid only inside `body`: do not store or return it.
    ///
    /// - Complexity: O(1); no allocation.
    @inlinable @inline(__always)
    public func withUnsafeBufferPointer<Result: ~Copyable, Failure: Error>(
        _ body: (UnsafeBufferPointer<Element>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(storage))
    }

    /// Calls `body` with the elements, writable. The pointer is valid only inside `body`: do not store or return it,
    /// and do not deinitialise or free its memory (the buffer does that).
    ///
    /// - Complexity: O(1); no allocation.
    @inlinable @inline(__always)
    public func withUnsafeMutableBufferPointer<Result: ~Copyable, Failure: Error>(
        _ body: (UnsafeMutableBufferPointer<Element>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(storage)
    }

    /// Sets every element to `value`.
    ///
    /// - Complexity: O(`count`); no allocation.
    @inlinable
    public func update(repeating value: Element) {
        storage.update(repeating: value)
    }

    /// Overwrites the elements with `source`'s, in order.
    ///
    /// - Precondition: `source.count == count`.
    /// - Complexity: O(`count`); no allocation.
    @inlinable
    public func update(fromContentsOf source: some Collection<Element>) {
        precondition(source.count == storage.count, "the source must have one element per buffer element")
        _ = storage.update(fromContentsOf: source)
    }

    /// The elements copied into a new array (which allocates): for snapshots and tests, not for real-time paths.
    @inlinable
    public var array: [Element] { Array(storage) }
}
