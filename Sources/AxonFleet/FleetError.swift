/// What goes wrong in the fleet: bad names, bad messages, the spool, the broker.
///
/// Threading: a plain value, `Sendable`.
public enum FleetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A device id that cannot be a NATS subject token (only `A–Z a–z 0–9 - _`, 1…64 characters).
    case invalidDeviceID(String)
    /// A raw-frame message that does not decode; `reason` says why.
    case badMessage(String)
    /// The on-disk spool could not be read or written.
    case spool(String)
    /// A broker call failed.
    case nats(NATSError)
    /// An option that cannot work.
    case invalidOption(String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidDeviceID(let id):
            return "device id \"\(id)\" is not usable: 1–64 characters of A–Z a–z 0–9 - _"
        case .badMessage(let reason): return "undecodable raw message: \(reason)"
        case .spool(let reason): return "spool: \(reason)"
        case .nats(let error): return "NATS: \(error)"
        case .invalidOption(let reason): return reason
        }
    }
}
