import AxonStreams

/// What goes wrong in the fleet: bad names, bad messages, the spool, the broker.
///
/// Equality and hashing compare ``description``: ``spool(_:cause:)`` and ``json(_:cause:)`` keep the error they
/// caught as a value.
///
/// Threading: a plain value, `Sendable`.
public enum FleetError: Error, Sendable, EquatableByDescription {
    /// A device id that cannot be a NATS subject token (only `A–Z a–z 0–9 - _`, 1…64 characters).
    case invalidDeviceID(String)
    /// A raw-frame message that does not decode; `reason` says why.
    case badMessage(String)
    /// A message whose JSON part (`what`: a raw message's `Axon-Descriptor`, an event) does not decode or encode;
    /// `cause` is the coder's error.
    case json(String, cause: any Error)
    /// The on-disk spool could not be read or written: what failed, in words that include the cause's, and the error
    /// caught (`nil` when none was: a truncated file).
    case spool(String, cause: (any Error)? = nil)
    /// A broker call failed.
    case nats(NATSError)
    /// An option that cannot work.
    case invalidOption(String)

    /// `error` as a fleet error: a ``FleetError`` as it is, a ``NATSError`` as ``nats(_:)``, anything else (a
    /// decoder's error) as ``json(_:cause:)`` about `what`.
    static func wrapping(_ error: any Error, decoding what: String) -> FleetError {
        if let error = error as? FleetError { return error }
        if let error = error as? NATSError { return .nats(error) }
        return .json(what, cause: error)
    }

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidDeviceID(let id):
            return "device id \"\(id)\" is not usable: 1–64 characters of A–Z a–z 0–9 - _"
        case .badMessage(let reason): return "undecodable raw message: \(reason)"
        case .json(let what, let cause): return "\(what): \(cause)"
        case .spool(let reason, _): return "spool: \(reason)"
        case .nats(let error): return "NATS: \(error)"
        case .invalidOption(let reason): return reason
        }
    }
}
