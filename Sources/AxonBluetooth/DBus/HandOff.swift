import AxonStreams

/// Carries one value from the D-Bus owner thread to an awaiting task through a lock.
///
/// A continuation alone would carry it too, but the concurrency runtime's own synchronisation is invisible to
/// ThreadSanitizer; passing the value under a POSIX mutex makes the happens-before edge one that every tool sees.
///
/// Threading contract: ``put(_:)`` on the producing thread before resuming the waiter, ``take()`` after it resumed.
final class HandOff<Value: Sendable>: Sendable {
    private let slot = ThreadLocked<Value?>(nil)

    func put(_ value: Value) { slot.withLock { $0 = value } }

    /// The value put; the producer must have put it before resuming the taker.
    func take() -> Value {
        slot.withLock { value in
            guard let taken = value else { preconditionFailure("HandOff.take() before put()") }
            return taken
        }
    }

    /// Runs `start` with a completion for the producer, suspends until it is called, and returns its value.
    static func await(_ start: (@escaping @Sendable (Value) -> Void) -> Void) async -> Value {
        let handOff = HandOff<Value>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            start { value in
                handOff.put(value)
                continuation.resume()
            }
        }
        return handOff.take()
    }
}
