/// What an ELM327 exchange can fail with: the link, the answer, or a dongle that is not an ELM327.
///
/// Threading: a value type; share freely.
public enum ELM327Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte link failed (closed, timed out, could not open).
    case link(OBDLinkError)
    /// The dongle answered, but not with a value (`NO DATA`, `?`, bus errors, malformed answers).
    case response(OBDResponseError)
    /// The reset (`ATZ`) was answered without an ELM327 banner: `banner` is what came back.
    case notAnELM327(endpoint: String, banner: String)
    /// The answer before the `>` prompt grew past the limit without a prompt (a dongle streaming garbage).
    case answerTooLong(command: String, bytes: Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .link(let error): return error.description
        case .response(let error): return error.description
        case .notAnELM327(let endpoint, let banner):
            return "\(endpoint) answered the reset with \"\(banner)\", not an ELM327 banner"
        case .answerTooLong(let command, let bytes):
            return "\(command): \(bytes) bytes without a > prompt"
        }
    }

    /// Whether the link to the dongle is gone (the gateway reconnects after these).
    public var isLinkLoss: Bool {
        if case .link(let error) = self { return error.isLinkLoss }
        return false
    }
}
