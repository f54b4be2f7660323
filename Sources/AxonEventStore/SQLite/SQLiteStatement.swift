import CSQLite

/// One prepared statement of a ``SQLiteConnection``: bind, step, read columns.
///
/// Threading: not thread-safe; used only by whoever holds its connection (``SQLitePool`` hands a connection to one
/// caller at a time).
final class SQLiteStatement {
    let sql: String
    private let handle: OpaquePointer
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteConnection.error(connection, code: code, sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to its parameters, in order.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real): code = sqlite3_bind_double(handle, index, real)
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, axon_sqlite_transient())
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw SQLiteConnection.error(connection, code: code, sql: sql) }
        }
    }

    /// Advances to the next row: `true` when there is one to read, `false` when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteConnection.error(connection, code: code, sql: sql)
        }
    }

    /// Binds `values` and runs the statement to its end, ignoring any rows; then resets it, so that it holds no
    /// lock while it waits in the cache.
    func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Binds `values` and returns `row` applied to every result row; then resets the statement.
    func rows<T>(_ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> T) throws -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var result: [T] = []
        while try step() { result.append(try row(self)) }
        return result
    }

    /// Column `index` of the current row as an integer (0 for NULL).
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` of the current row as a double, or `nil` for NULL.
    func double(_ index: Int32) -> Double? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_double(handle, index)
    }

    /// Column `index` of the current row as text ("" for NULL).
    func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
