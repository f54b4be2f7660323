/// An error SQLite reported: its extended result code, its message and the statement it came from.
///
/// Internal to the store; ``EventStoreError/wrapping(_:)`` turns it into ``EventStoreError/sqlite(code:message:sql:)``.
struct SQLiteError: Error, Sendable {
    /// SQLite's extended result code (the primary code is its low byte).
    let code: Int32
    let message: String
    let sql: String?

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, …).
    var primaryCode: Int32 { code & 0xff }
}
