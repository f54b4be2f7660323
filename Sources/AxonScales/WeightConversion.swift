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
