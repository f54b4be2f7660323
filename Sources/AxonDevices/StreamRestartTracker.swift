/// The link bookkeeping of a source whose device streams only after a start command and forgets it when the link
/// drops (a Muse, a Polar H10): it counts link losses and starts, and once the link is ready again after a start was
/// sent, it says the start must be sent again.
///
///     // on the transport's thread
///     if state.withLock({ $0.restarts.note(event) }) { writer.interruptWait() }
///     // on the source's thread
///     if state.withLock({ $0.restarts.takeRestart() }) { try start() }
///
/// Threading: a value type; its owner keeps it under the lock that guards the rest of its state.
public struct StreamRestartTracker: Sendable, Hashable {
    /// Link losses seen.
    public private(set) var linkLosses = 0
    /// Starts sent (once, then once per reconnection).
    public private(set) var startsSent = 0
    /// Whether a reconnection is waiting for the start to be sent again.
    public private(set) var restartPending = false

    /// No losses, no starts.
    public init() {}

    /// Notes a link event: a loss (`linkLost`, `serviceVanished`) is counted; `ready` after a start marks a restart
    /// pending. Returns whether one is pending (the owner then wakes the thread that sends the start).
    public mutating func note(_ event: LinkEvent) -> Bool {
        switch event {
        case .linkLost, .serviceVanished: linkLosses += 1
        case .ready: if startsSent > 0 { restartPending = true }
        default: break
        }
        return restartPending
    }

    /// Notes that the start was sent.
    public mutating func noteStart() { startsSent += 1 }

    /// Whether a restart is pending; clears it.
    public mutating func takeRestart() -> Bool {
        defer { restartPending = false }
        return restartPending
    }
}
