/// What went wrong on a byte link to a device (a serial port, a pty, a TCP socket, a serial-over-GATT tunnel).
/// Every case names the endpoint in ``description``.
///
/// Threading: a value type; share freely.
public enum ByteLinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint could not be opened (no such device, connection refused, no permission). `code` is `errno`.
    case cannotOpen(endpoint: String, code: Int32, reason: String)
    /// Nothing arrived before the deadline.
    case timeout(endpoint: String, seconds: Double)
    /// The peer closed the link (end of file on the descriptor, a hung-up pty, a reset TCP connection).
    case closed(endpoint: String)
    /// A read, write or poll failed. `code` is `errno`.
    case io(endpoint: String, operation: String, code: Int32)
    /// A read or write through a device transport (a serial-over-GATT tunnel) failed: the transport's error.
    case transport(endpoint: String, operation: String, TransportError)
    /// The link was used before the link's `open()` or after `OBDByteLink.close()`.
    case notOpen(endpoint: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .cannotOpen(let endpoint, let code, let reason):
            return "cannot open \(endpoint): \(reason) (errno \(code))"
        case .timeout(let endpoint, let seconds):
            return "no answer from \(endpoint) within \(seconds) s"
        case .closed(let endpoint):
            return "\(endpoint) closed the link"
        case .io(let endpoint, let operation, let code):
            return "\(operation) on \(endpoint) failed (errno \(code))"
        case .transport(let endpoint, let operation, let error):
            return "\(operation) on \(endpoint) failed: \(error)"
        case .notOpen(let endpoint):
            return "the link to \(endpoint) is not open"
        }
    }

    /// Whether the link is gone (as opposed to a slow answer): a client reconnects after these.
    public var isLinkLoss: Bool {
        switch self {
        case .closed, .io, .transport, .notOpen, .cannotOpen: return true
        case .timeout: return false
        }
    }
}
