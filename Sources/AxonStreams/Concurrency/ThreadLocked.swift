import AxonMemory

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
/// Every pthread call's return is checked, as swift-nio's `NIOLock` does: a failure means a broken invariant (a
/// re-entered lock, a corrupt mutex), so it stops the process with the call and its error number rather than run on
/// unprotected. Debug builds make the mutex error-checking, so re-entering `withLock` from its own body fails there
/// instead of deadlocking.
///
/// Threading contract: any thread; `withLock` must not be re-entered from its own body.
public final class ThreadLocked<Value: ~Copyable>: @unchecked Sendable {
    // Sendable invariant: `value` is only touched between lock and unlock of `mutex`.
    /// One `pthread_mutex_t`; its memory never moves, as POSIX requires of a mutex in use.
    private let mutex = OwnedBuffer(repeating: pthread_mutex_t(), count: 1)
    private var value: Value

    /// Puts `value` behind a new mutex.
    public init(_ value: consuming Value) {
        self.value = value
        var attributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        defer { Self.check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy") }
        #if DEBUG
            Self.check(
                pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        #endif
        Self.check(onMutex { pthread_mutex_init($0, &attributes) }, "pthread_mutex_init")
    }

    deinit {
        Self.check(onMutex { pthread_mutex_destroy($0) }, "pthread_mutex_destroy")
    }

    /// Runs `body` with the value, under the lock; its error, typed or not, passes through.
    @discardableResult
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        Self.check(onMutex { pthread_mutex_lock($0) }, "pthread_mutex_lock")
        defer { Self.check(onMutex { pthread_mutex_unlock($0) }, "pthread_mutex_unlock") }
        return try body(&value)
    }

    /// Calls `call` with the mutex's address.
    @inline(__always)
    private func onMutex(_ call: (UnsafeMutablePointer<pthread_mutex_t>) -> Int32) -> Int32 {
        mutex.withUnsafeMutableBufferPointer { call($0.baseAddress!) }
    }

    /// Stops the process when a pthread call returned an error number.
    private static func check(_ code: Int32, _ call: StaticString) {
        precondition(code == 0, "\(SystemCallError(call: "\(call)", code: code))")
    }
}
