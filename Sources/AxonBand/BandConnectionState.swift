/// Where a ``BandSession``'s link is (the seed's `currentState`).
///
/// Threading: a value type; share freely.
public enum BandConnectionState: String, Sendable, Hashable {
    /// Not connected: before ``BandSession/connect()`` or after ``BandSession/close()``.
    case disconnected
    /// ``BandSession/connect()`` is opening the link.
    case connecting
    /// Connected; data flows.
    case connected
    /// The link was lost; the transport is reconnecting by itself.
    case linkLost
}
