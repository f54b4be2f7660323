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

/// Exact conversions between kilograms, pounds and stones, and the values a scale displays.
///
/// The pound is exactly 0.453 592 37 kg (the 1959 international yard and pound agreement) and the stone exactly
/// 14 lb. Displays round to the nearest step of the unit's resolution: 0.1 kg, 0.2 lb, and for stones whole stones
/// plus pounds at 0.2 lb. Rounding works on integers of the step, so a displayed value is never off by a
/// floating-point hair (77.6 kg shows 171.0 lb, not 171.00000001).
///
///     WeightConversion.displayed(kilograms: 77.6, in: .st).text   // "12 st 3.0 lb"
///
/// Threading: pure functions.
public enum WeightConversion {
    /// Kilograms in one pound, exactly.
    public static let kilogramsPerPound = 0.45359237
    /// Pounds in one stone, exactly.
    public static let poundsPerStone = 14

    /// `kilograms` in pounds (unrounded).
    public static func pounds(fromKilograms kilograms: Double) -> Double { kilograms / kilogramsPerPound }
    /// `pounds` in kilograms (unrounded).
    public static func kilograms(fromPounds pounds: Double) -> Double { pounds * kilogramsPerPound }

    /// What a scale set to `unit` shows for `kilograms`.
    public static func displayed(kilograms: Double, in unit: WeightUnit) -> DisplayedWeight {
        switch unit {
        case .kg:
            return DisplayedWeight(unit: .kg, steps: Int((kilograms * 10).rounded()))
        case .lb, .st:
            // Fifths of a pound: kg × 5 / 0.45359237 = kg × 500 000 000 / 45 359 237.
            return DisplayedWeight(unit: unit, steps: Int((kilograms * 500_000_000 / 45_359_237).rounded()))
        }
    }
}

/// A weight as a scale displays it: a whole number of the unit's display steps (0.1 kg, or 0.2 lb for lb and st).
///
/// Threading: a value type; share freely.
public struct DisplayedWeight: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The display unit.
    public var unit: WeightUnit
    /// Tenths of a kilogram for `.kg`; fifths of a pound for `.lb` and `.st`.
    public var steps: Int

    /// Creates a value from its fields (each documented on its property).
    public init(unit: WeightUnit, steps: Int) {
        self.unit = unit
        self.steps = steps
    }

    /// The displayed value in the unit (stones as a fraction for `.st`).
    public var value: Double {
        switch unit {
        case .kg: Double(steps) / 10
        case .lb: Double(steps) / 5
        case .st: Double(steps) / 5 / Double(WeightConversion.poundsPerStone)
        }
    }

    /// The displayed value back in kilograms.
    public var kilograms: Double {
        switch unit {
        case .kg: Double(steps) / 10
        case .lb, .st: WeightConversion.kilograms(fromPounds: Double(steps) / 5)
        }
    }

    /// Whole stones and the remaining pounds (for `.st`; for the others the total in pounds).
    public var stonesAndPounds: (stones: Int, pounds: Double) {
        let fifthsPerStone = 5 * WeightConversion.poundsPerStone
        let pounds = unit == .kg ? Int((WeightConversion.pounds(fromKilograms: kilograms) * 5).rounded()) : steps
        return (pounds / fifthsPerStone, Double(pounds % fifthsPerStone) / 5)
    }

    /// "77.6 kg", "171.0 lb", "12 st 3.0 lb".
    public var text: String {
        switch unit {
        case .kg: Self.oneDecimal(steps, per: 10) + " kg"
        case .lb: Self.oneDecimal(steps * 2, per: 10) + " lb"
        case .st:
            "\(steps / 70) st " + Self.oneDecimal((steps % 70) * 2, per: 10) + " lb"
        }
    }

    /// A sentence for people.
    public var description: String { text }

    /// `tenths / per` with one decimal, from integers (no floating-point formatting).
    private static func oneDecimal(_ count: Int, per: Int) -> String {
        let sign = count < 0 ? "-" : ""
        let magnitude = abs(count)
        return "\(sign)\(magnitude / per).\(magnitude % per)"
    }
}
