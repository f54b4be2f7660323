/// Which scale a session talks to, and what it can do.
///
/// Threading: a value type; share freely.
public enum ScaleModel: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// iHealth HS3: memory transfer and stable weight; Bluetooth on/off from firmware 1.0.2.
    case hs3
    /// iHealth HS4: measurement with a display unit (unstable and stable weight); memory transfer once validated.
    case hs4
    /// iHealth HS5: 20 users, measurement with impedance and body composition, memory transfer.
    case hs5
    /// Any scale with the Bluetooth SIG Weight Scale (and optionally Body Composition) service.
    case standard

    /// A sentence for people.
    public var description: String { rawValue }

    /// Whether the model keeps records for a memory transfer.
    public var hasMemory: Bool { self != .standard }
    /// Whether the model has user positions (HS5).
    public var hasUsers: Bool { self == .hs5 }
    /// Whether the model measures body composition.
    public var measuresBodyComposition: Bool { self == .hs5 || self == .standard }
    /// The most records a memory transfer can hold (seed: "Memory Number, 0~200").
    public static let memoryCapacity = 200
}
