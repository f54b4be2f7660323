// AxonEEG — the running individual alpha frequency of a live session.

import AxonDSP

/// The individual alpha frequency of a session's clean windows so far (``EEGSession/individualAlpha``), estimated
/// every ``EEGProcessor/alphaUpdateWindows`` clean windows.
///
/// Threading: a plain value, `Sendable`.
public struct IndividualAlphaUpdate: Sendable, Hashable, Codable {
    /// The engine's sample index at the end of the newest window included.
    public var sampleIndex: Int
    /// Unix time of that sample, milliseconds.
    public var timeframe: Double
    /// Clean windows averaged.
    public var windows: Int
    /// The estimate (per channel and pooled).
    public var estimate: IndividualAlphaFrequency.Estimate
}
