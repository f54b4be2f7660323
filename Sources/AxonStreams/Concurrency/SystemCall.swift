#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed: the call's name and the error number it left.
///
/// Threading: a value; any thread.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call, as its manual page names it (`"read"`, `"poll"`).
    public let call: String
    /// The `errno` value (or, for calls that return it, the error number returned).
    public let code: Int32

    /// A failure of `call` with error number `code`.
    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// `"read failed: Bad file descriptor (errno 9)"`.
    public var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// The one place a system call is retried after a signal interrupts it (EINTR) and its failure becomes a typed
/// error that names the call. Every descriptor call in the project goes through here rather than its own loop.
///
/// Threading: stateless; any thread. Allocates nothing when `call` is a string literal.
///
///     let count = try SystemCall.retrying("read") { read(fd, buffer, size) }
package enum SystemCall {
    /// Runs `body`, a call that returns -1 and sets `errno` on failure, again for as long as it fails with EINTR.
    ///
    /// - Returns: the call's result, never negative.
    /// - Throws: ``SystemCallError`` with `call` and `errno` for any other failure (EAGAIN included: whether that
    ///   is a failure is the caller's to say).
    package static func retrying<Result: SignedInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: call, code: code)
        }
    }

    /// Runs `body`, a call that returns 0 or an error number (`clock_nanosleep`, the `pthread_` family), again for
    /// as long as it returns EINTR.
    ///
    /// - Throws: ``SystemCallError`` with `call` and the returned error number for any other failure.
    package static func retryingReturnedError(_ call: String, _ body: () -> Int32) throws(SystemCallError) {
        while true {
            let code = body()
            if code == 0 { return }
            if code == EINTR { continue }
            throw SystemCallError(call: call, code: code)
        }
    }
}
