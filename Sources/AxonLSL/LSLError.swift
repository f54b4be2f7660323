/// What went wrong talking to liblsl. Every case reads as one sentence for people (``description``).
///
/// Threading: a value type; share freely.
public enum LSLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// liblsl could not be loaded from any of the places tried (listed in order, with `dlerror`'s reason).
    case libraryNotFound(tried: [String], reason: String)
    /// The library was loaded but lacks a function Axon uses (an older or foreign build).
    case missingSymbol(String)
    /// The library is older than the oldest version Axon was checked against (`version` as liblsl reports it,
    /// 118 = 1.18).
    case unsupportedVersion(Int32)
    /// A liblsl call returned an error code (`lsl_timeout_error` -1, `lsl_lost_error` -2, `lsl_argument_error` -3,
    /// `lsl_internal_error` -4), with liblsl's own last error text when it has one.
    case call(function: String, code: Int32, message: String)
    /// A liblsl call that returns an object returned none.
    case nullResult(function: String, message: String)
    /// No stream matched the selector within the timeout.
    case streamNotFound(selector: String, timeout: Double)
    /// A stream selector that cannot be parsed (`NAME`, `type=EEG`, `source_id=…`, `name=…`).
    case invalidSelector(String)
    /// A stream whose shape Axon cannot take as a source or publish as an outlet.
    case unsupportedStream(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .libraryNotFound(let tried, let reason):
            return "liblsl not found (tried \(tried.joined(separator: ", ")); \(reason)): run scripts/python-peers.sh "
                + "(installs pylsl, whose wheel ships liblsl, and links it under .liblsl/) or set AXON_LIBLSL to a "
                + "liblsl.so"
        case .missingSymbol(let name):
            return "the loaded liblsl has no \(name); Axon needs liblsl 1.16 or later"
        case .unsupportedVersion(let version):
            return "liblsl \(version / 100).\(version % 100) is too old; Axon needs liblsl 1.16 or later"
        case .call(let function, let code, let message):
            return "\(function) failed: \(Self.name(ofCode: code))" + (message.isEmpty ? "" : " (\(message))")
        case .nullResult(let function, let message):
            return "\(function) returned nothing" + (message.isEmpty ? "" : " (\(message))")
        case .streamNotFound(let selector, let timeout):
            return "no LSL stream matches \(selector) (waited \(timeout) s; see `axon lsl list` and docs/lsl.md)"
        case .invalidSelector(let text):
            return "cannot read the LSL stream selector \"\(text)\": use NAME, name=NAME, type=TYPE or source_id=ID"
        case .unsupportedStream(let reason):
            return reason
        }
    }

    /// liblsl's name for an error code.
    public static func name(ofCode code: Int32) -> String {
        switch code {
        case -1: return "timeout (lsl_timeout_error)"
        case -2: return "stream lost (lsl_lost_error)"
        case -3: return "bad argument (lsl_argument_error)"
        case -4: return "internal error (lsl_internal_error)"
        default: return "error code \(code)"
        }
    }
}
