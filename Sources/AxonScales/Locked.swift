import Synchronization

/// A value behind a `Mutex`, as a class so closures and objects can share it.
///
/// Threading: `Sendable`; every access takes the lock.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R>(_ body: (inout sending Value) throws -> sending R) rethrows -> R { try mutex.withLock(body) }
}
