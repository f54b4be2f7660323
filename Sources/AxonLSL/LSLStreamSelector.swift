/// Which LSL stream to take: by name, content type or source id, as written after `lsl:` on the command line.
///
///     try LSLStreamSelector(parsing: "OpenBCI")            // name = OpenBCI
///     try LSLStreamSelector(parsing: "type=EEG")           // the first EEG stream
///     try LSLStreamSelector(parsing: "source_id=cyton-1")  // survives the outlet's restarts
///
/// Threading: a value type; share freely.
public struct LSLStreamSelector: Sendable, Hashable, CustomStringConvertible {
    /// The stream property compared (liblsl's names: `name`, `type`, `source_id`).
    public var property: String
    /// The value it must have.
    public var value: String

    /// Creates a selector from a property and a value.
    public init(property: String, value: String) {
        self.property = property
        self.value = value
    }

    /// Parses `NAME`, `name=NAME`, `type=TYPE` or `source_id=ID`.
    ///
    /// - Throws: ``LSLError/invalidSelector(_:)`` for an empty value or another property.
    public init(parsing text: String) throws(LSLError) {
        guard let equals = text.firstIndex(of: "=") else {
            guard !text.isEmpty else { throw .invalidSelector(text) }
            self.init(property: "name", value: text)
            return
        }
        let property = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        guard ["name", "type", "source_id"].contains(property), !value.isEmpty else { throw .invalidSelector(text) }
        self.init(property: property, value: value)
    }

    /// `property=value`.
    public var description: String { "\(property)=\(value)" }
}
