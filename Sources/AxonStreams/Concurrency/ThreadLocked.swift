#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a POSIX mutex, for state that threads outside the real-time path hand to each other (a work
/// queue, a reply, a decoder's published state).
///
/// `Synchronization.Mutex` locks with futexes on Linux, which ThreadSanitizer does not see: every hand-off through
/// it is reported as a race. `pthread_mutex_t` is intercepted, so the happens-before edges are the tool's too.
/// Never use it on a path that must not lock (the ring hand-off is lock-free).
///
/// Threading contract: any thread; `withLock` must not be re-entered from its own body.
public final class ThreadLocked<Value: ~Copyable>: @unchecked Sendable {
    // Sendable invariant: `value` is only touched between lock and unlock of `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: consuming Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, under the lock; its error, typed or not, passes through.
    @discardableResult
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
