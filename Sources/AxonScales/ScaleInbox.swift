import AxonDevices
import AxonStreams

/// What the session's command side waits for: decoded frames of the scale and link events, in arrival order.
enum ScaleInboxItem: Sendable {
    case response(ScaleResponse)
    case weight(WeightMeasurement)
    case composition(BodyCompositionMeasurement)
    /// A new weight from an HS3's serial stream, with the host time it was taken at.
    case serialWeight(ScaleRecord)
    case link(LinkEvent)
}

/// A queue from the transport's delivery thread (producer) to the one command in progress (consumer), with a
/// waiting time for the consumer.
///
/// Threading: `Sendable`; `push` from the delivery thread, `next` and `clear` from the session's command task
/// (commands run one at a time).
final class ScaleInbox: Sendable {
    private struct State {
        var queue: [ScaleInboxItem] = []
        var waiter: CheckedContinuation<ScaleInboxItem?, Never>?
        var ticket = 0
        /// The waiting time of the current waiter; cancelled when an item comes first.
        var timer: Task<Void, Never>?
    }

    private let state = ThreadLocked(State())

    func push(_ item: ScaleInboxItem) {
        let waiter = state.withLock { state -> CheckedContinuation<ScaleInboxItem?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                state.timer?.cancel()
                state.timer = nil
                return waiter
            }
            state.queue.append(item)
            return nil
        }
        waiter?.resume(returning: item)
    }

    /// Drops what arrived before a new command.
    func clear() { state.withLock { $0.queue.removeAll() } }

    /// The next item, or `nil` after `seconds` without one.
    func next(within seconds: Double) async -> ScaleInboxItem? {
        await withCheckedContinuation { (continuation: CheckedContinuation<ScaleInboxItem?, Never>) in
            let ticket = state.withLock { state -> Int? in
                if !state.queue.isEmpty {
                    continuation.resume(returning: state.queue.removeFirst())
                    return nil
                }
                state.ticket += 1
                state.waiter = continuation
                return state.ticket
            }
            guard let ticket else { return }
            let timer = Task { [self] in
                try? await Task.sleep(for: .seconds(seconds))
                guard !Task.isCancelled else { return }
                let expired = self.state.withLock { state -> CheckedContinuation<ScaleInboxItem?, Never>? in
                    guard state.ticket == ticket, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    state.timer = nil
                    return waiter
                }
                expired?.resume(returning: nil)
            }
            let stillWaiting = state.withLock { state -> Bool in
                guard state.ticket == ticket, state.waiter != nil else { return false }
                state.timer = timer
                return true
            }
            if !stillWaiting { timer.cancel() }
        }
    }
}
