import GRDB

/// What went wrong opening, writing or reading an ``EventStore``. Every case says where and what in
/// ``description``.
///
/// Threading: a value type; share freely.
public enum EventStoreError: Error, Sendable, Hashable, CustomStringConvertible {
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
    /// A payload or descriptor could not be encoded as JSON.
    case encodingFailed(type: String, reason: String)
    /// A stored payload or descriptor could not be decoded as the requested type.
    case decodingFailed(type: String, deviceRecordID: String, reason: String)
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
        case .encodingFailed(let type, let reason):
            return "cannot encode \(type) as JSON: \(reason)"
        case .decodingFailed(let type, let id, let reason):
            return "cannot decode record \"\(id)\" as \(type): \(reason)"
        case .sqlite(let code, let message, let sql):
            return "SQLite error \(code): \(message)" + (sql.map { " (in: \($0))" } ?? "")
        }
    }

    /// Runs `body`, passing ``EventStoreError``s through and turning GRDB's `DatabaseError` (and anything else)
    /// into a typed case.
    static func wrapping<T>(_ body: () throws -> T) throws(EventStoreError) -> T {
        do {
            return try body()
        } catch let error as EventStoreError {
            throw error
        } catch let error as DatabaseError {
            throw .sqlite(
                code: error.extendedResultCode.rawValue, message: error.message ?? "\(error)", sql: error.sql)
        } catch {
            throw .sqlite(code: 1, message: "\(error)", sql: nil)
        }
    }
}
