import AxonStreams
import Testing

@testable import AxonRecording

@Suite("Decimal parser")
struct DecimalParserTests {
    func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            DecimalParser.parse(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, from: 0, to: buffer.count)
        }
    }

    /// Fast path and fallback both give exactly the standard library's result.
    @Test(arguments: [
        "0", "-0", "61379.36", " -16597.06", "7223.10 ", "0.040", "1557936053329", "1486223115.483", "+5", "1e3",
        "-2.5E-4", "123456789012345678901234", "0.1234567890123456789", "9007199254740993", "1e-30",
        "1.7976931348623157e308", "4.9e-324", ".5", "5.", "nan", "inf", "-inf",
    ])
    func matchesTheStandardLibrary(text: String) throws {
        let expected = try #require(Double(text.trimmingCharacters(in: [" "])))
        let got = try #require(parse(text))
        if expected.isNaN {
            #expect(got.isNaN)
        } else {
            #expect(got == expected && got.sign == expected.sign)
        }
    }

    @Test(arguments: ["", "  ", "abc", "1.2.3", "1e", "--1", "12a", "-", "."])
    func rejectsWhatIsNotANumber(text: String) {
        #expect(parse(text) == nil)
    }

    /// Random decimals with 1…17 significant digits and exponents around the fast path's limits.
    @Test func randomDecimalsMatchTheStandardLibrary() {
        var generator = SplitMix64(seed: 42)  // seeded, so a failure can be reproduced
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            let mantissa = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            let point = Int.random(in: 0...digits, using: &generator)
            var text = String(mantissa.prefix(point)) + "." + String(mantissa.dropFirst(point))
            if Bool.random(using: &generator) { text = "-" + text }
            if Int.random(in: 0..<4, using: &generator) == 0 {
                text += "e\(Int.random(in: -30...30, using: &generator))"
            }
            if parse(text) != Double(text) { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
