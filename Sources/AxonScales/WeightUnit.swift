/// The display units of the iHealth scales (`HSUnit_Kg`, `HSUnit_LB`, `HSUnit_ST`).
///
/// Threading: a value type; share freely.
public enum WeightUnit: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case kg, lb, st

    /// The byte Axon's scale framing uses for the unit (docs/scale-protocol.md).
    public var code: UInt8 {
        switch self {
        case .kg: 0
        case .lb: 1
        case .st: 2
        }
    }

    /// The unit for a framing byte, or `nil`.
    public init?(code: UInt8) {
        switch code {
        case 0: self = .kg
        case 1: self = .lb
        case 2: self = .st
        default: return nil
        }
    }

    /// A sentence for people.
    public var description: String { rawValue }
}
