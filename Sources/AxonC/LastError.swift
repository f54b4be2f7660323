// AxonC — the calling thread's last error message, behind axon_last_error().

import CAxonABI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last failure message of each thread, as a C string the thread owns: `axon_last_error()` hands out a pointer
/// that stays valid until the same thread fails again, and no other thread's failure can move it.
///
/// Threading: per thread by construction (a pthread key); the key itself is made once, under Swift's lazy-global
/// initialisation.
enum LastError {
    /// The key of each thread's message, a `malloc`ed C string freed when the thread exits or the message changes.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { message in free(message) }
        precondition(status == 0, "pthread_key_create failed with error \(status)")
        return key
    }()

    /// Makes `message` the calling thread's last error.
    static func set(_ message: String) {
        let previous = pthread_getspecific(key)
        // strdup failing (no memory) leaves the thread without a message rather than with a stale one.
        let copy = strdup(message)
        let status = pthread_setspecific(key, copy.map { UnsafeRawPointer($0) })
        if status == 0 {
            free(previous)
        } else {
            free(copy)
        }
    }

    /// The calling thread's last error, or "" when it has none.
    static var current: UnsafePointer<CChar> {
        if let message = pthread_getspecific(key) { return UnsafePointer(message.assumingMemoryBound(to: CChar.self)) }
        return staticCString("")
    }
}

/// The message of the last call on this thread that failed, or "" (`axon.h`). Any thread.
@c @implementation
public func axon_last_error() -> UnsafePointer<CChar>! {
    LastError.current
}
