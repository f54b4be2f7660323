/// Parses decimal numbers straight from file bytes, without making a `String` per field.
///
/// The fast path (Clinger's): up to 19 significant digits accumulate in a `UInt64`; when that mantissa is at
/// most 2^53 and the decimal exponent within ±22, both it and the power of ten are exact doubles, so one IEEE
/// multiplication or division gives the correctly rounded result — the same `Double` as `Double("61379.36")`.
/// Anything else (long mantissas, huge exponents, `nan`, `inf`) falls back to the standard library's
/// locale-independent `Double(_:)` on a temporary string.
///
/// Threading: stateless; any thread.
enum DecimalParser {
    /// The number in `base[start..<end]`, ignoring spaces and tabs around it, or `nil` if the field is empty or
    /// not a number. O(field length).
    static func parse(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        var i = start
        var stop = end
        while i < stop, base[i] == space || base[i] == tab { i += 1 }
        while stop > i, base[stop - 1] == space || base[stop - 1] == tab { stop -= 1 }
        guard i < stop else { return nil }
        let fieldStart = i
        var negative = false
        if base[i] == minus {
            negative = true
            i += 1
        } else if base[i] == plus {
            i += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var sawDigit = false
        while i < stop {
            let digit = base[i] &- zero
            guard digit <= 9 else { break }
            sawDigit = true
            if mantissa != 0 || digit != 0 {
                significant += 1
                guard significant <= 19 else { return slow(base, from: fieldStart, to: stop) }
                mantissa = mantissa &* 10 &+ UInt64(digit)
            }
            i += 1
        }
        if i < stop, base[i] == dot {
            i += 1
            while i < stop {
                let digit = base[i] &- zero
                guard digit <= 9 else { break }
                sawDigit = true
                if mantissa != 0 || digit != 0 {
                    significant += 1
                    guard significant <= 19 else { return slow(base, from: fieldStart, to: stop) }
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                }
                exponent -= 1
                i += 1
            }
        }
        guard sawDigit else { return slow(base, from: fieldStart, to: stop) }
        if i < stop, base[i] | 0x20 == letterE {
            i += 1
            var exponentNegative = false
            if i < stop, base[i] == minus || base[i] == plus {
                exponentNegative = base[i] == minus
                i += 1
            }
            var value = 0
            var digits = 0
            while i < stop {
                let digit = base[i] &- zero
                guard digit <= 9 else { break }
                value = value * 10 + Int(digit)
                digits += 1
                guard digits <= 4 else { return slow(base, from: fieldStart, to: stop) }
                i += 1
            }
            guard digits > 0 else { return nil }
            exponent += exponentNegative ? -value : value
        }
        guard i == stop else { return slow(base, from: fieldStart, to: stop) }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else {
            return slow(base, from: fieldStart, to: stop)
        }
        let magnitude =
            exponent >= 0 ? Double(mantissa) * powerOfTen(exponent) : Double(mantissa) / powerOfTen(-exponent)
        return negative ? -magnitude : magnitude
    }

    /// 10^k for 0 ≤ k ≤ 22, all exact doubles.
    static func powerOfTen(_ k: Int) -> Double {
        var result = 1.0
        var base = 10.0
        var remaining = k
        // Square-and-multiply: every intermediate is a power of ten ≤ 10^22, hence exact.
        while remaining > 0 {
            if remaining & 1 == 1 { result *= base }
            base *= base
            remaining >>= 1
        }
        return result
    }

    /// The standard library's parser, for what the fast path does not cover.
    @inline(never)
    static func slow(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self))
    }

    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let letterE: UInt8 = 0x65
}
