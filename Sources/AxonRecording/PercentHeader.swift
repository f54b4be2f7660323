/// The `%key = value` header lines of the OpenBCI GUI's text formats (``OpenBCITextReader``,
/// ``OpenBCILegacyTextReader``).
///
/// Threading: stateless; any thread.
enum PercentHeader {
    /// The trimmed key and value of `%key = value`, or `nil` for a `%` line without `=`.
    static func entry(_ text: String) -> (key: String, value: String)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let key = trimmed(String(text[text.index(after: text.startIndex)..<equals]))
        return (key, trimmed(String(text[text.index(after: equals)...])))
    }

    /// `250 Hz` or `250.0 Hz` as hertz.
    ///
    /// - Throws: ``RecordingError/malformedHeader(line:reason:)`` when it is not a positive finite number.
    static func sampleRate(_ value: String, line: Int) throws(RecordingError) -> Double {
        let number = value.split(separator: " ").first.flatMap { Double($0) }
        guard let hertz = number, hertz.isFinite, hertz > 0 else {
            throw .malformedHeader(line: line, reason: "sample rate \"\(value)\" is not a rate in Hz")
        }
        return hertz
    }
}
