import CSQLite

/// One SQLite connection: opened with a busy timeout and foreign keys on, closed when released; statements run
/// through it are prepared once and cached by their SQL.
///
/// Threading: not thread-safe. SQLite is asked for no mutex of its own (`SQLITE_OPEN_NOMUTEX`): ``SQLitePool``
/// hands each connection to one caller at a time, under a lock.
final class SQLiteConnection {
    let path: String
    private let handle: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]

    /// How long a statement waits for another connection's lock (another store on the same file) before
    /// `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Opens `path`, creating it unless `readOnly`.
    init(path: String, readOnly: Bool) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error =
                connection.map { Self.error($0, code: code, sql: nil) }
                ?? SQLiteError(code: code, message: String(cString: sqlite3_errstr(code)), sql: nil)
            sqlite3_close_v2(connection)
            throw error
        }
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, Self.busyTimeoutMilliseconds)
        self.path = path
        self.handle = connection
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        cache.removeAll()  // finalizes the statements before the close
        sqlite3_close_v2(handle)
    }

    /// Runs one or more `;`-separated statements that take no parameters; rows they return are ignored.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(
                code: sqlite3_extended_errcode(handle),
                message: message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
    }

    /// The statement for `sql`, prepared on first use and kept for this connection's lifetime.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = cache[sql] { return cached }
        let statement = try SQLiteStatement(connection: handle, sql: sql)
        cache[sql] = statement
        return statement
    }

    /// The first column of every row of `sql` as text.
    func texts(_ sql: String, _ values: [SQLiteValue] = []) throws -> [String] {
        try statement(sql).rows(values) { $0.text(0) }
    }

    /// The first column of the first row of `sql` as an integer, or `nil` when there is no row.
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int64? {
        try statement(sql).rows(values) { $0.int64(0) }.first
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int32 { sqlite3_changes(handle) }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The connection's current error as a ``SQLiteError``, with `code` when SQLite has no extended one.
    static func error(_ connection: OpaquePointer, code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(connection)
        return SQLiteError(
            code: extended & 0xff == code & 0xff ? extended : code,
            message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
