import AxonStreams

/// What went wrong opening, writing or reading an ``EventStore``. Every case says where and what in
/// ``description``. Equality and hashing compare that sentence: the coding cases and ``unexpected(path:cause:)`` keep
/// the error they caught as a value.
///
/// Threading: a value type; share freely.
public enum EventStoreError: Error, Sendable, EquatableByDescription {
    /// The database file could not be opened or set up (missing folder, no permission, not an SQLite file, WAL
    /// mode refused). `code` is SQLite's result code when SQLite gave one, else 0.
    case cannotOpen(path: String, code: Int32, reason: String)
    /// The file was written by a newer Axon: it has schema migrations this build does not know, so writing to
    /// it could corrupt what that version stored. `unknownMigrations` lists them.
    case schemaTooNew(path: String, unknownMigrations: [String])
    /// A ``StreamHandle`` that this store did not hand out (a handle from another file, say).
    case unknownStream(id: Int64, sourceID: String, name: String)
    /// ``EventStore/register(_:ifChanged:)`` with `.reject` found a different descriptor stored for the same
    /// source id and stream name.
    case descriptorChanged(sourceID: String, name: String)
    /// A record the store refuses before writing anything (an empty device record id, a non-finite time).
    case invalidRecord(deviceRecordID: String, reason: String)
    /// A payload or descriptor could not be encoded as JSON; `cause` is the encoder's error.
    case encodingFailed(type: String, cause: any Error)
    /// A stored payload or descriptor could not be decoded as the requested type; `cause` is the decoder's error.
    case decodingFailed(type: String, deviceRecordID: String, cause: any Error)
    /// An error that is neither SQLite's nor the store's, from the database layer (`path`: the store's file, when
    /// it was being opened).
    case unexpected(path: String?, cause: any Error)
    /// SQLite reported an error: its (extended) result code, its message and the statement, when known.
    case sqlite(code: Int32, message: String, sql: String?)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let code, let reason):
            return "cannot open event store \(path): \(reason)" + (code != 0 ? " (SQLite code \(code))" : "")
        case .schemaTooNew(let path, let unknown):
            return "event store \(path) was written by a newer version (unknown schema migrations: "
                + "\(unknown.sorted().joined(separator: ", "))); refusing to write to it"
        case .unknownStream(let id, let sourceID, let name):
            return "stream \(id) (\(sourceID)/\(name)) is not registered in this event store"
        case .descriptorChanged(let sourceID, let name):
            return "stream \(sourceID)/\(name) is already registered with a different descriptor; register it with "
                + "ifChanged: .replace to store the new one"
        case .invalidRecord(let id, let reason):
            return "invalid event record \"\(id)\": \(reason)"
        case .encodingFailed(let type, let cause):
            return "cannot encode \(type) as JSON: \(cause)"
        case .decodingFailed(let type, let id, let cause):
            return "cannot decode record \"\(id)\" as \(type): \(cause)"
        case .unexpected(let path, let cause):
            return path.map { "cannot open event store \($0): \(cause)" } ?? "event store: \(cause)"
        case .sqlite(let code, let message, let sql):
            return "SQLite error \(code): \(message)" + (sql.map { " (in: \($0))" } ?? "")
        }
    }

    /// Runs `body`, passing ``EventStoreError``s through and turning SQLite's errors into ``sqlite(code:message:sql:)``
    /// (anything else as ``unexpected(path:cause:)``).
    static func wrapping<T>(_ body: () throws -> T) throws(EventStoreError) -> T {
        do {
            return try body()
        } catch let error as EventStoreError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(code: error.code, message: error.message, sql: error.sql)
        } catch {
            throw .unexpected(path: nil, cause: error)
        }
    }
}
