// AxonBench — what can stop a measurement.

import AxonStreams

/// Why a benchmark could not run.
///
/// Equality and hashing compare ``description``: a ``setupFailed(_:cause:)`` keeps the error it caught as a value.
///
/// Threading: a plain value, `Sendable`.
public enum BenchError: Error, Sendable, EquatableByDescription {
    /// A channel count or rate outside what the measurements support.
    case invalidWorkload(String)
    /// The engine, the FFT plan or a pipeline thread could not be set up: what, and the error that stopped it (`nil`
    /// when nothing threw: a thread that was not found).
    case setupFailed(String, cause: (any Error)? = nil)

    /// A human message.
    public var description: String {
        switch self {
        case .invalidWorkload(let detail): "invalid workload: \(detail)"
        case .setupFailed(let detail, let cause):
            "benchmark set-up failed: \(detail)" + (cause.map { ": \($0)" } ?? "")
        }
    }
}
