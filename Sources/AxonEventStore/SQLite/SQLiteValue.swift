/// A value bound to a statement's `?` parameter.
enum SQLiteValue: Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

extension SQLiteValue {
    /// `.real`, or `.null` for `nil`.
    static func real(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }
}
