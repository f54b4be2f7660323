import Testing

@testable import AxonScales

/// kg / lb / st displays, exact to the displayed resolution (0.1 kg, 0.2 lb, st + lb at 0.2 lb).
struct WeightConversionTests {
    struct Case: Sendable, CustomStringConvertible {
        var kg: Double, kgText: String, lbText: String, stText: String
        var description: String { "\(kg) kg" }
    }

    /// Hand-computed: lb = kg / 0.45359237, rounded to the nearest 0.2 lb; st = ⌊lb / 14⌋ and the rest.
    static let cases: [Case] = [
        Case(kg: 77.6, kgText: "77.6 kg", lbText: "171.0 lb", stText: "12 st 3.0 lb"),  // 171.0787 lb
        Case(kg: 100, kgText: "100.0 kg", lbText: "220.4 lb", stText: "15 st 10.4 lb"),  // 220.4623 lb
        Case(kg: 50, kgText: "50.0 kg", lbText: "110.2 lb", stText: "7 st 12.2 lb"),  // 110.2311 lb
        Case(kg: 0.1, kgText: "0.1 kg", lbText: "0.2 lb", stText: "0 st 0.2 lb"),  // 0.2205 lb
        Case(kg: 63.5029318, kgText: "63.5 kg", lbText: "140.0 lb", stText: "10 st 0.0 lb"),  // exactly 10 st
        Case(kg: 150, kgText: "150.0 kg", lbText: "330.6 lb", stText: "23 st 8.6 lb"),  // 330.6934 lb
    ]

    @Test(arguments: cases) func displays(_ c: Case) {
        #expect(WeightConversion.displayed(kilograms: c.kg, in: .kg).text == c.kgText)
        #expect(WeightConversion.displayed(kilograms: c.kg, in: .lb).text == c.lbText)
        #expect(WeightConversion.displayed(kilograms: c.kg, in: .st).text == c.stText)
    }

    @Test func definitionsAreExact() {
        #expect(WeightConversion.kilograms(fromPounds: 1) == 0.45359237)
        #expect(WeightConversion.kilograms(fromPounds: 14) == 6.35029318)
        #expect(WeightConversion.pounds(fromKilograms: 0.45359237) == 1)
    }

    /// Every 0.1 kg from 0 to 300 kg: each display is the nearest step to the exact value (within half a step),
    /// and the stone display is the pound display split.
    @Test func everyTenthOfAKilogramDisplaysWithinHalfAStep() {
        for tenths in 0...3000 {
            let kg = Double(tenths) / 10
            let exactPounds = kg / 0.45359237
            let kgDisplay = WeightConversion.displayed(kilograms: kg, in: .kg)
            #expect(kgDisplay.steps == tenths)
            let lb = WeightConversion.displayed(kilograms: kg, in: .lb)
            #expect(abs(lb.value - exactPounds) <= 0.1 + 1e-9)
            let st = WeightConversion.displayed(kilograms: kg, in: .st)
            let (stones, pounds) = st.stonesAndPounds
            #expect(abs(Double(stones * 14) + pounds - lb.value) < 1e-9)
            #expect(pounds >= 0 && pounds < 14)
            // Back from the pound display to kilograms: within half a 0.2 lb step (0.045 359 237 kg).
            #expect(abs(lb.kilograms - kg) <= 0.045359237 + 1e-9)
        }
    }

    @Test func unitCodesRoundTrip() {
        for unit in WeightUnit.allCases { #expect(WeightUnit(code: unit.code) == unit) }
        #expect(WeightUnit(code: 3) == nil)
    }
}
