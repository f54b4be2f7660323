import AxonStreams
import Dispatch
import Testing

/// Waiting for a condition instead of for a fixed time: a test that waits for a peer (a mock bluetoothd, a broker, a
/// pty simulator, a stream to drain) polls what it waits for and goes on as soon as it holds, with a generous deadline
/// so that a slow, shared machine does not fail it. A missed deadline records an issue at the caller's file and line
/// (`onTimeout: .recordIssue`, the default), so `waitUntil(seconds: 20) { … }` alone is the check; a wait whose
/// timeout the test tolerates or checks itself says `onTimeout: .returnFalse`.
///
/// Threading: the synchronous form blocks the calling thread between looks (call it off the cooperative pool when
/// other tasks must run meanwhile; the asynchronous forms suspend instead). `condition` runs on the calling thread or
/// task only, except in the semaphore form, which looks from a dispatch thread.

/// What a wait does when its deadline passes with the condition still false.
public enum WaitTimeout: Sendable {
    /// Records an issue naming the caller's file and line, then returns false: the test fails there.
    case recordIssue
    /// Returns false only: the caller goes on and checks what it needs itself.
    case returnFalse

    func settle(_ held: Bool, seconds: Double, sourceLocation: SourceLocation) -> Bool {
        if !held, self == .recordIssue {
            Issue.record("the condition did not hold within \(seconds) s", sourceLocation: sourceLocation)
        }
        return held
    }
}

/// Polls `condition` every `interval` seconds until it holds (true, at once) or `seconds` have passed (false, after a
/// last look, and an issue at the caller's line unless `onTimeout` is `.returnFalse`).
@discardableResult
public func waitUntil(
    seconds: Double, interval: Double = 0.01, onTimeout: WaitTimeout = .recordIssue,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = HostClock.now() + seconds
    while try !condition() {
        let now = HostClock.now()
        if now >= deadline {
            return onTimeout.settle(try condition(), seconds: seconds, sourceLocation: sourceLocation)
        }
        HostClock.sleep(until: min(deadline, now + interval))
    }
    return true
}

/// The asynchronous form of ``waitUntil(seconds:interval:onTimeout:sourceLocation:_:)``: suspends between looks
/// instead of blocking a thread.
@discardableResult
public func waitUntil(
    seconds: Double, interval: Double = 0.01, onTimeout: WaitTimeout = .recordIssue,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = HostClock.now() + seconds
    while try await !condition() {
        let now = HostClock.now()
        if now >= deadline {
            return onTimeout.settle(try await condition(), seconds: seconds, sourceLocation: sourceLocation)
        }
        try await Task.sleep(nanoseconds: UInt64(max(0, min(deadline - now, interval)) * 1e9))
    }
    return true
}

/// Waits on `semaphore` (signalled whenever what the test waits for may have changed) until `condition` holds or
/// `seconds` have passed; off the cooperative pool, so suspending callers do not hold one of its threads. Whether it
/// held.
@discardableResult
public func waitUntil(
    seconds: Double, signalledBy semaphore: DispatchSemaphore, onTimeout: WaitTimeout = .recordIssue,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: @escaping @Sendable () -> Bool
) async -> Bool {
    let held = await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            let deadline = HostClock.now() + seconds
            while !condition(), HostClock.now() < deadline {
                _ = semaphore.wait(timeout: .now() + min(0.5, max(0, deadline - HostClock.now())))
            }
            continuation.resume(returning: condition())
        }
    }
    return onTimeout.settle(held, seconds: seconds, sourceLocation: sourceLocation)
}
