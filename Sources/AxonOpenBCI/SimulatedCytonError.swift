import AxonStreams

/// Why a ``SimulatedCyton`` could not start.
///
/// Threading: a value type; share freely.
public enum SimulatedCytonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A pseudo-terminal call failed; `code` is errno.
    case pty(operation: String, code: Int32)
    /// The simulator's thread could not be created: the error that said why.
    case thread(PipelineError)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .pty(let operation, let code): return "pseudo-terminal: \(operation) failed (errno \(code))"
        case .thread(let error): return "cannot start the simulated Cyton's thread: \(error)"
        }
    }
}
