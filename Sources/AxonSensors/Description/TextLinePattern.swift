// AxonSensors — the named groups of a text layout's regular expression.

/// A text layout's regular expression: its named groups are the fields of a line.
enum TextLinePattern {
    /// The names of `pattern`'s groups `(?<name>…)`, in order, after checking that it compiles.
    ///
    /// - Throws: the regular expression parser's error.
    static func groupNames(_ pattern: String) throws -> [String] {
        _ = try Regex(pattern)
        var names: [String] = []
        var rest = Substring(pattern)
        var escaped = false
        while let first = rest.first {
            if escaped {
                escaped = false
                rest = rest.dropFirst()
                continue
            }
            if first == "\\" {
                escaped = true
            } else if rest.hasPrefix("(?<"), let next = rest.dropFirst(3).first, next != "=", next != "!" {
                let name = rest.dropFirst(3).prefix { $0 != ">" }
                names.append(String(name))
            } else if rest.hasPrefix("(?P<") {
                names.append(String(rest.dropFirst(4).prefix { $0 != ">" }))
            }
            rest = rest.dropFirst()
        }
        return names
    }
}
