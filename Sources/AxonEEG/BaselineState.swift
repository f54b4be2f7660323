// AxonEEG — where the baseline stands.

/// The progress of the baseline that indicators are measured against.
///
/// Threading: a plain value, `Sendable`.
public enum BaselineState: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    /// No baseline has been started (the seed's `hasStartedProcessBasicValues` is false).
    case notStarted = 0
    /// Collecting spectra (`hasStartedProcessBasicValues` true, `hasStartedIndicators` false).
    case collecting = 1
    /// Complete; indicators are being produced (`hasStartedIndicators` true).
    case complete = 2

    /// `not started`, `collecting` or `complete`.
    public var description: String {
        switch self {
        case .notStarted: "not started"
        case .collecting: "collecting"
        case .complete: "complete"
        }
    }
}
