// AxonDSP — a closed frequency interval such as the 7–13 Hz alpha band.

/// A closed frequency interval `[lower, upper]` in hertz. Both edges are inclusive: a bin whose centre frequency
/// equals an edge (to within 10⁻⁹ of a bin width) belongs to the band.
///
/// A band is checked against a sample rate only when it is used (``FrequencyGrid/bins(in:)``), because the same
/// band serves streams of different rates.
///
/// Threading: a plain value, `Sendable`.
///
///     let alpha = try FrequencyBand(7, 13)
public struct FrequencyBand: Sendable, Hashable, CustomStringConvertible {
    /// The lower edge, in hertz (inclusive).
    public let lower: Double
    /// The upper edge, in hertz (inclusive).
    public let upper: Double

    /// Creates the band `[lower, upper]` hertz.
    ///
    /// - Throws: ``DSPError/invalidBand(lower:upper:)`` unless both edges are finite and `lower ≤ upper`.
    public init(_ lower: Double, _ upper: Double) throws(DSPError) {
        guard lower.isFinite, upper.isFinite, lower <= upper else { throw .invalidBand(lower: lower, upper: upper) }
        self.lower = lower
        self.upper = upper
    }

    /// The width `upper − lower` in hertz.
    public var width: Double { upper - lower }

    /// `"[lower, upper] Hz"`.
    public var description: String { "[\(lower), \(upper)] Hz" }
}
