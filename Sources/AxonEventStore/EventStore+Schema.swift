import AxonStreams
import Foundation

extension EventStore {
    /// The identifiers of the migrations this build knows, oldest first.
    static let migrationIdentifiers: Set<String> = ["v1-streams"]

    /// The fixed tables. Per-stream event tables are made by ``createEventTable(_:named:)`` when a stream is
    /// registered; a later migration that changes them must loop over `streams.table_name`.
    static var migrations: SQLiteMigrations {
        var migrations = SQLiteMigrations()
        migrations.register(
            "v1-streams",
            sql: """
                CREATE TABLE streams (
                    id INTEGER PRIMARY KEY,
                    source_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    descriptor_json TEXT NOT NULL,
                    revision INTEGER NOT NULL DEFAULT 1,
                    table_name TEXT NOT NULL UNIQUE,
                    registered_at REAL NOT NULL,
                    UNIQUE (source_id, name)
                );
                CREATE TABLE stream_descriptor_history (
                    stream_id INTEGER NOT NULL REFERENCES streams(id),
                    revision INTEGER NOT NULL,
                    descriptor_json TEXT NOT NULL,
                    replaced_at REAL NOT NULL,
                    PRIMARY KEY (stream_id, revision)
                );
                CREATE TABLE event_conflicts (
                    id INTEGER PRIMARY KEY,
                    stream_id INTEGER NOT NULL REFERENCES streams(id),
                    device_record_id TEXT NOT NULL,
                    device_time REAL,
                    host_time REAL NOT NULL,
                    payload TEXT NOT NULL
                );
                CREATE UNIQUE INDEX event_conflicts_content
                    ON event_conflicts (stream_id, device_record_id, payload, ifnull(device_time, 'none'));
                """)
        return migrations
    }

    /// Creates a stream's event table: `seq` keeps arrival order, `device_record_id` is the idempotency key,
    /// `time` is `device_time` or else `host_time` (the query key, indexed with `seq`).
    static func createEventTable(_ db: SQLiteConnection, named table: String) throws {
        let quoted = quotedIdentifier(table)
        try db.execute(
            """
            CREATE TABLE \(quoted) (
                seq INTEGER PRIMARY KEY,
                device_record_id TEXT NOT NULL UNIQUE,
                device_time REAL,
                host_time REAL NOT NULL,
                time REAL NOT NULL,
                payload TEXT NOT NULL
            );
            CREATE INDEX \(quotedIdentifier("\(table)_time")) ON \(quoted) (time, seq);
            """)
    }

    /// `events_<id>_<name>_<source id>`, keeping ASCII letters and digits, everything else as `_`, at most 48
    /// characters of name: unique through the id, readable in the `sqlite3` shell.
    static func tableName(id: Int64, descriptor: StreamDescriptor) -> String {
        let raw = "\(descriptor.name)_\(descriptor.sourceID)".lowercased()
        var slug = String(
            raw.unicodeScalars.map { scalar -> Character in
                let keep = scalar.isASCII && (("a"..."z").contains(scalar) || ("0"..."9").contains(scalar))
                return keep ? Character(scalar) : "_"
            })
        if slug.count > 48 { slug = String(slug.prefix(48)) }
        return "events_\(id)_\(slug)"
    }

    /// Every row of `streams`, by id.
    static func fetchStreams(_ db: SQLiteConnection) throws -> [StoredStream] {
        try db.statement("SELECT id, source_id, name, descriptor_json, revision, table_name FROM streams ORDER BY id")
            .rows { row in
                let handle = StreamHandle(
                    id: row.int64(0), sourceID: row.text(1), name: row.text(2), tableName: row.text(5))
                return StoredStream(
                    handle: handle, descriptor: try decodeDescriptor(row.text(3), handle: handle),
                    revision: Int(row.int64(4)))
            }
    }

    /// `name` as an SQL identifier: in double quotes, a double quote inside doubled.
    static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func decodeDescriptor(_ json: String, handle: StreamHandle) throws(EventStoreError) -> StreamDescriptor {
        do {
            return try JSONDecoder().decode(StreamDescriptor.self, from: Data(json.utf8))
        } catch {
            throw .decodingFailed(
                type: "StreamDescriptor", deviceRecordID: "stream \(handle.sourceID)/\(handle.name)",
                cause: error)
        }
    }

    static func encodeJSON<T: Encodable>(_ value: T) throws(EventStoreError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .encodingFailed(type: "\(T.self)", cause: error)
        }
    }
}
