// AxonView — the small JSON writer behind the view's messages.

import Foundation

/// Builds one JSON text by appending: numbers rounded for display, non-finite numbers and absent values as `null`.
///
/// Foundation's encoders refuse NaN and cannot round; the view needs both (a "no peak" band is `null`, a raw point
/// inside a gap is `null`, spectra need four significant digits, not seventeen).
///
/// Threading: a value type used by one thread at a time.
struct ViewJSON {
    private(set) var text = ""

    init(capacity: Int = 256) { text.reserveCapacity(capacity) }

    mutating func raw(_ fragment: String) { text += fragment }

    /// A number with `digits` decimals (`null` when not finite), trailing zeros kept short.
    mutating func number(_ value: Double, digits: Int) {
        guard value.isFinite else { return text += "null" }
        text += String(format: "%.\(digits)f", value)
    }

    /// A number with `significant` significant digits (`null` when not finite).
    mutating func significant(_ value: Double, _ significant: Int = 4) {
        guard value.isFinite else { return text += "null" }
        text += String(format: "%.\(significant)g", value)
    }

    mutating func optional(_ value: Double?, digits: Int) {
        if let value { number(value, digits: digits) } else { text += "null" }
    }

    mutating func int(_ value: Int) { text += String(value) }

    mutating func bool(_ value: Bool) { text += value ? "true" : "false" }

    /// A string literal with JSON escapes.
    mutating func string(_ value: String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// `"key":` — the caller appends the value.
    mutating func key(_ name: String) {
        string(name)
        text += ":"
    }

    /// Elements separated by commas inside `[` `]`.
    mutating func array<S: Sequence>(_ elements: S, _ body: (inout ViewJSON, S.Element) -> Void) {
        text += "["
        var first = true
        for element in elements {
            if !first { text += "," }
            first = false
            body(&self, element)
        }
        text += "]"
    }
}
