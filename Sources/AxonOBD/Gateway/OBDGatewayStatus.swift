/// A change in the gateway's connection, published on ``OBDGateway/status``.
///
/// Threading: a value type; share freely.
public enum OBDGatewayStatus: Sendable, Hashable, CustomStringConvertible {
    /// Connected to a dongle (its device; after a reconnection too).
    case connected(OBDDevice)
    /// The link was lost; the reason. Continuous registrations keep their clocks running and their streams get a
    /// gap for the outage.
    case linkLost(reason: String)
    /// A reconnection attempt to the favourite failed; `attempt` counts from 1, `retryIn` is the back-off in s.
    case reconnecting(attempt: Int, retryIn: Double)
    /// Disconnected on request.
    case disconnected
    /// The event log could not store an event or a batch state (the reason); the event stays in memory only.
    case storeFailed(reason: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .connected(let device): return "connected to \(device.name) at \(device.identifier)"
        case .linkLost(let reason): return "link lost: \(reason)"
        case .reconnecting(let attempt, let retryIn):
            return "reconnection attempt \(attempt) failed; retrying in \(retryIn) s"
        case .disconnected: return "disconnected"
        case .storeFailed(let reason): return "event store failed: \(reason)"
        }
    }
}
