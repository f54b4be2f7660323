/// What happens to a device link, in order: the status stream of every transport, and what a
/// ``TransportReceiver`` hears between notifications.
public enum LinkEvent: Sendable, Hashable, CustomStringConvertible {
    /// Discovery started (`true`) or stopped while looking for the device.
    case scanning(Bool)
    /// The device was found (name or address as the transport knows it).
    case found(name: String, address: String)
    /// A connection attempt began (1 for the first, counting up until one succeeds).
    case connecting(attempt: Int)
    /// The attempt failed; the next one follows after `retryIn` seconds.
    case connectFailed(reason: String, retryIn: Double)
    /// The link is up (before its services are known).
    case connected
    /// The device's services and characteristics are known.
    case servicesResolved
    /// A characteristic the device needs is not there.
    case characteristicMissing(GATTCharacteristicID)
    /// Notifications of a characteristic are on.
    case notifying(GATTCharacteristicID)
    /// Everything is set up; data flows.
    case ready
    /// The link went down (the device left, its power failed, the stack reset it). Reconnection starts by itself.
    case linkLost(reason: String)
    /// The Bluetooth service itself (bluetoothd) went away; the transport waits for it to return.
    case serviceVanished
    /// The Bluetooth service is back; the transport starts over.
    case serviceReturned
    /// A notification could not be handled (the transport's own delivery errors; decoders report their own).
    case error(String)
    /// The transport was closed by its owner; nothing follows.
    case closed

    public var description: String {
        switch self {
        case .scanning(let on): on ? "scanning started" : "scanning stopped"
        case .found(let name, let address): "found \(name) (\(address))"
        case .connecting(let attempt): "connecting (attempt \(attempt))"
        case .connectFailed(let reason, let retryIn): "connect failed: \(reason); retrying in \(retryIn) s"
        case .connected: "connected"
        case .servicesResolved: "services resolved"
        case .characteristicMissing(let id): "characteristic \(id) missing"
        case .notifying(let id): "notifications on for \(id)"
        case .ready: "ready"
        case .linkLost(let reason): "link lost: \(reason)"
        case .serviceVanished: "Bluetooth service vanished"
        case .serviceReturned: "Bluetooth service returned"
        case .error(let message): "error: \(message)"
        case .closed: "closed"
        }
    }
}
