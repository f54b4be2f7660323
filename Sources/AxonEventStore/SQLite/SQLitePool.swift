import AxonStreams

/// The store's connections to one SQLite file in WAL mode: one writer that every write goes through, one at a
/// time, and reader connections that each see the last committed state while a write is in progress, so a reader
/// never stalls a writer (nor the other way round).
///
/// Writes run in a `BEGIN IMMEDIATE` transaction: the file's write lock is taken up front, so a second store on the
/// same file waits its turn (busy timeout, ``SQLiteConnection/busyTimeoutMilliseconds``) instead of failing to
/// upgrade a read lock. Reads run in a deferred transaction: one snapshot for all their statements. A body that
/// throws rolls its transaction back.
///
/// Threading: `Sendable`; any thread. Writers queue on one POSIX mutex (seen by ThreadSanitizer); a reader takes an
/// idle read connection, or opens one when every one is busy, and gives it back when done.
final class SQLitePool: Sendable {
    let path: String
    private let writer: ThreadLocked<SQLiteConnection>
    private let idleReaders = ThreadLocked<[SQLiteConnection]>([])

    /// Opens the writer (creating the file), switches the file to WAL and sets `synchronous = FULL`.
    init(path: String) throws(SQLiteError) {
        let connection = try SQLiteConnection(path: path, readOnly: false)
        let mode = try Self.walMode(connection)
        guard mode == "wal" else {
            throw SQLiteError(code: 0, message: "the file refused WAL journal mode (it is in \(mode) mode)", sql: nil)
        }
        try connection.execute("PRAGMA synchronous = FULL")
        self.path = path
        writer = ThreadLocked(connection)
    }

    /// `PRAGMA journal_mode = WAL` and what SQLite answered: the first statement that reads the file, so a file
    /// that is not a database fails here (`SQLITE_NOTADB`).
    private static func walMode(_ connection: SQLiteConnection) throws(SQLiteError) -> String {
        do {
            return try connection.texts("PRAGMA journal_mode = WAL").first ?? ""
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(code: 0, message: "\(error)", sql: "PRAGMA journal_mode = WAL")
        }
    }

    /// Runs `body` in a write transaction and commits it (durable on return: `synchronous = FULL`).
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { connection in
            try Self.transaction(connection, begin: "BEGIN IMMEDIATE", body)
        }
    }

    /// Runs `body` on the writer outside any transaction (pragmas).
    func writeWithoutTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { connection in try body(connection) }
    }

    /// Runs `body` on a read connection inside one deferred transaction: a consistent snapshot of the last commit.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try idleReaders.withLock { $0.popLast() } ?? SQLiteConnection(path: path, readOnly: true)
        defer { idleReaders.withLock { $0.append(connection) } }
        return try Self.transaction(connection, begin: "BEGIN DEFERRED", body)
    }

    private static func transaction<T>(
        _ connection: SQLiteConnection, begin: String, _ body: (SQLiteConnection) throws -> T
    ) throws -> T {
        try connection.execute(begin)
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
