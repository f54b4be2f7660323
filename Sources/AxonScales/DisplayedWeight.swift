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
