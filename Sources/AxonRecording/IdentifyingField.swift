/// One field of a recording file that can identify a person, and where it sits (``IdentifyingFields``).
///
/// Threading: a value type; share freely.
public struct IdentifyingField: Sendable, Hashable {
    /// What the field can reveal.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The person: name, code, sex, birthdate, subject information.
        case person
        /// Who recorded where: technician, hospital code, host name, session.
        case recording
        /// The device or file: equipment, a serial number, a source id, a stream or file name.
        case device
        /// A date or time of the recording (kept by `--anonymize`, moved by `--shift-days`).
        case date
        /// Free text: an annotation or marker (dropped by `--anonymize` unless `--keep-annotations`).
        case annotation
        /// A header field whose meaning Axon does not know: free-form, so it may identify.
        case header
    }

    /// What it can reveal.
    public var kind: Kind
    /// The field's name (`patient name`, `hostname`, `TimeStamp`).
    public var name: String
    /// Where it sits: a byte range, an XML path, a line and column.
    public var location: String
    /// Its value as written.
    public var value: String

    /// Creates a field.
    public init(kind: Kind, name: String, location: String, value: String) {
        self.kind = kind
        self.name = name
        self.location = location
        self.value = value
    }
}
