// AxonEEG — typed errors of the EEG engine's set-up and control.

import AxonDSP
import AxonStreams

/// An error raised while configuring or driving the EEG engine.
///
/// Threading: a plain value, `Sendable`.
public enum EEGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A parameter that cannot be used; `reason` says which and why.
    case invalidConfiguration(String)
    /// A DSP building block refused the configuration (a band beyond Nyquist, an FFT that cannot be planned).
    case dsp(DSPError)
    /// A stream whose channel count differs from the engine's.
    case channelCountMismatch(expected: Int, actual: Int)
    /// A channel label that the stream does not have.
    case unknownChannel(String, available: [String])
    /// A checkpoint (``EEGEngine/Snapshot``) that does not fit this engine; `reason` says what differs.
    case snapshotMismatch(String)
    /// A session's pipeline could not start (a sink that failed to open, a thread the system refused).
    case pipeline(PipelineError)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): return "invalid EEG engine configuration: \(reason)"
        case .dsp(let error): return "EEG engine set-up failed: \(error)"
        case .channelCountMismatch(let expected, let actual):
            return "the stream has \(actual) channels but the engine was configured for \(expected)"
        case .unknownChannel(let label, let available):
            return "no channel labelled \(label); available: \(available.joined(separator: ", "))"
        case .snapshotMismatch(let reason): return "the engine checkpoint does not fit this engine: \(reason)"
        case .pipeline(let error): return error.description
        }
    }
}
