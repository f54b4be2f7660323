import AxonStreams
import Dispatch

/// Waiting for a condition instead of for a fixed time: a test that waits for a peer (a mock bluetoothd, a broker, a
/// pty simulator, a stream to drain) polls what it waits for and goes on as soon as it holds, with a generous deadline
/// so that a slow, shared machine does not fail it. Use it as `#expect(waitUntil(seconds: 20) { … })` or
/// `try #require(…)`, so a missed deadline fails at the caller's file and line.
///
/// Threading: the synchronous form blocks the calling thread between looks (call it off the cooperative pool when
/// other tasks must run meanwhile; the asynchronous form suspends instead). `condition` runs on the calling thread or
/// task only.

/// Polls `condition` every `interval` seconds until it holds (true, at once) or `seconds` have passed (false, after a
/// last look).
public func waitUntil(seconds: Double, interval: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = HostClock.now() + seconds
    while try !condition() {
        let now = HostClock.now()
        if now >= deadline { return try condition() }
        HostClock.sleep(until: min(deadline, now + interval))
    }
    return true
}

/// The asynchronous form of ``waitUntil(seconds:interval:_:)``: suspends between looks instead of blocking a thread.
public func waitUntil(
    seconds: Double, interval: Double = 0.01, _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = HostClock.now() + seconds
    while try await !condition() {
        let now = HostClock.now()
        if now >= deadline { return try await condition() }
        try await Task.sleep(nanoseconds: UInt64(max(0, min(deadline - now, interval)) * 1e9))
    }
    return true
}

/// Waits on `semaphore` (signalled whenever what the test waits for may have changed) until `condition` holds or
/// `seconds` have passed; off the cooperative pool, so suspending callers do not hold one of its threads. Whether it
/// held.
public func waitUntil(
    seconds: Double, signalledBy semaphore: DispatchSemaphore, _ condition: @escaping @Sendable () -> Bool
) async -> Bool {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            let deadline = HostClock.now() + seconds
            while !condition(), HostClock.now() < deadline {
                _ = semaphore.wait(timeout: .now() + min(0.5, max(0, deadline - HostClock.now())))
            }
            continuation.resume(returning: condition())
        }
    }
}
