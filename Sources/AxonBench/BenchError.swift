// AxonBench — what can stop a measurement.

/// Why a benchmark could not run.
///
/// Threading: a plain value, `Sendable`.
public enum BenchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A channel count or rate outside what the measurements support.
    case invalidWorkload(String)
    /// The engine, the FFT plan or a pipeline thread could not be set up.
    case setupFailed(String)

    /// A human message.
    public var description: String {
        switch self {
        case .invalidWorkload(let detail): "invalid workload: \(detail)"
        case .setupFailed(let detail): "benchmark set-up failed: \(detail)"
        }
    }
}
