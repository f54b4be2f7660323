import AxonDevices
import AxonEventStore
import AxonRecording

/// Why a band session operation failed.
///
/// Threading: a value type; share freely.
public enum BandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command broke one of the seed's limits; nothing was sent.
    case invalidCommand(BandCommandError)
    /// The transport failed (no device, no connection, a failed write).
    case transport(TransportError)
    /// The event store failed; the record was not acknowledged, so the band still holds it.
    case store(EventStoreError)
    /// The band refused a command (its own check of the same rules).
    case rejected(command: UInt8)
    /// Nothing arrived from the band for `seconds` while waiting for `what`.
    case timedOut(what: String, seconds: Double)
    /// Notifications kept arriving malformed (the last error), so the sync stopped.
    case malformed(BandDecodingError)
    /// ``BandSession/sync()`` without an event store: records must not be taken from the band unstored.
    case noStore
    /// The session was closed.
    case closed
    /// Binding asked of a transport that cannot pair (it does not conform to ``AxonDevices/DevicePairing``).
    case pairingUnavailable(transport: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalidCommand(let error): "invalid command: \(error)"
        case .transport(let error): "\(error)"
        case .store(let error): "event store: \(error)"
        case .rejected(let type): "the band refused command 0x\(String(type, radix: 16))"
        case .timedOut(let what, let seconds): "nothing from the band for \(seconds) s while waiting for \(what)"
        case .malformed(let error): "malformed notifications: \(error)"
        case .noStore: "a sync needs an event store"
        case .closed: "the band session is closed"
        case .pairingUnavailable(let transport): "\(transport) cannot pair: binding needs a Bluetooth transport"
        }
    }
}
