// AxonEEG — which artifacts a window carries.

/// The artifacts the engine flags in a window (``SignalQualityThresholds``).
///
/// Threading: a plain value, `Sendable`.
public struct ArtifactKinds: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates a set from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A blink or eye movement: a large slow swing on an eye channel.
    public static let eyes = ArtifactKinds(rawValue: 1)
    /// Muscle: broadband high-frequency power (a jaw clench).
    public static let muscle = ArtifactKinds(rawValue: 2)

    /// The names of the kinds in the set (`eyes`, `muscle`).
    public var names: [String] {
        [(ArtifactKinds.eyes, "eyes"), (.muscle, "muscle")].compactMap { contains($0.0) ? $0.1 : nil }
    }

    /// `eyes+muscle`, `eyes`, `muscle` or `none`.
    public var description: String { isEmpty ? "none" : names.joined(separator: "+") }
}
