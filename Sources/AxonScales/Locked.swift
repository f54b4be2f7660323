import Foundation

/// A value behind a lock, shared by reference.
///
/// The lock is an `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux, with this toolchain,
/// ThreadSanitizer does not see `Mutex`'s futex-based locking and reports every access under it as a race, so the
/// scale tests could not run under TSan. A pthread mutex it does see.
///
/// Threading: `Sendable`; every access holds the lock. Do not block or call back into the owner inside `body`.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // Sendable invariant: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
