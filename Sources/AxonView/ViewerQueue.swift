// AxonView — one viewer's bounded queue of messages.

import AxonStreams
import Synchronization

/// One message for viewers: its JSON text and whether a newer message of the same kind makes it worthless.
///
/// Threading: a value type; share freely.
public struct ViewMessage: Sendable, Hashable {
    /// What the message carries.
    public enum Kind: String, Sendable, Hashable {
        /// Descriptor, state, the last seconds of raw data: sent first to every viewer.
        case hello
        /// Decimated raw points and gap records since the previous `raw` message.
        case raw
        /// The latest spectrum frame (replaces the previous one on the page).
        case spectrum
        /// One indicator (an entry of the zone timeline).
        case indicator
        /// A status message or battery level from the device.
        case status
        /// Stream statistics (replaces the previous ones on the page).
        case stats
        /// The run has ended; the page keeps the last state.
        case end
        /// The latest window's band powers (replaces the previous ones on the page).
        case bandPowers
    }

    /// The kind.
    public let kind: Kind
    /// The JSON text sent to the browser.
    public let text: String

    /// A message a slow viewer may lose when its queue is full: raw points (a break is drawn and the loss counted)
    /// and whatever the next message of the same kind replaces. Indicators, status and the end are kept.
    public var isSkippable: Bool { kind == .raw || kind == .spectrum || kind == .stats || kind == .bandPowers }
}

/// A viewer's queue: the hub pushes from its own thread, the viewer's WebSocket task pops. At most ``capacity``
/// messages wait; when it is full a push drops the oldest skippable message (or, if none, the oldest message) and
/// counts it, so a viewer that stops reading costs a bounded amount of memory and never slows anyone else.
///
/// Threading: `push`, `close` and the counters from any thread; `next()` from one task at a time. A `ThreadLocked` lock guards
/// the state; no one waits on it for longer than an array operation on at most `capacity` elements.
public final class ViewerQueue: Sendable {
    /// The most messages that wait for this viewer.
    public let capacity: Int

    private struct State {
        var items: [ViewMessage] = []
        var waiter: CheckedContinuation<ViewMessage?, Never>?
        var closed = false
        var skipped = 0
        var skippedRaw = 0
        var peak = 0
    }

    private let state: ThreadLocked<State>

    /// Creates an empty queue holding at most `capacity` messages (at least 2).
    public init(capacity: Int) {
        precondition(capacity >= 2, "a viewer's queue needs room for at least two messages")
        self.capacity = capacity
        var initial = State()
        initial.items.reserveCapacity(capacity)
        state = ThreadLocked(initial)
    }

    /// Messages waiting now.
    public var count: Int { state.withLock { $0.items.count } }
    /// The most messages that ever waited at once (never above ``capacity``).
    public var peakCount: Int { state.withLock { $0.peak } }
    /// Messages dropped because the viewer did not read them in time.
    public var skippedCount: Int { state.withLock { $0.skipped } }
    /// Of those, `raw` messages (each is drawn as a break on the page).
    public var skippedRawCount: Int { state.withLock { $0.skippedRaw } }

    /// Queues `message`; hands it straight to a waiting reader if there is one. Returns `false` once closed.
    @discardableResult
    public func push(_ message: ViewMessage) -> Bool {
        let waiter: CheckedContinuation<ViewMessage?, Never>? = state.withLock { state in
            if state.closed { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.items.count >= capacity {
                let victim = state.items.firstIndex(where: \.isSkippable) ?? 0
                if state.items[victim].kind == .raw { state.skippedRaw += 1 }
                state.items.remove(at: victim)
                state.skipped += 1
            }
            state.items.append(message)
            state.peak = max(state.peak, state.items.count)
            return nil
        }
        guard let waiter else { return !isClosed }
        waiter.resume(returning: message)
        return true
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Ends the queue: a waiting reader gets `nil`, later pushes are ignored.
    public func close() {
        let waiter = state.withLock { state -> CheckedContinuation<ViewMessage?, Never>? in
            state.closed = true
            state.items.removeAll()
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The oldest waiting message, waiting for one if there is none; `nil` once closed or when the task is cancelled.
    public func next() async -> ViewMessage? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ViewMessage?, Never>) in
                let immediate: ViewMessage?? = state.withLock { state in
                    if !state.items.isEmpty { return .some(state.items.removeFirst()) }
                    if state.closed || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            close()
        }
    }
}
