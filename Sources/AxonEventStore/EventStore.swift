import AxonStreams
import Foundation

/// A durable store for events a device sends only once (smartband sync data, a scale's memory records, OBD event
/// batches): one SQLite file, written so that a record is on disk when ``insert(_:record:)`` returns.
///
/// **Durability.** The file is in WAL journal mode with `synchronous = FULL`: every commit appends to the WAL and
/// `fsync`s it before returning. With `NORMAL` (SQLite's advice for most apps in WAL mode) a
/// commit survives a killed process — the bytes are in the kernel's page cache — but the last transactions can
/// roll back on power loss or a kernel crash, because the WAL is only synced at checkpoints. A device that erases
/// its memory once we acknowledge a sync cannot send it again, so the store pays one `fsync` per transaction
/// (batch with ``insert(_:batch:)`` to share it). Kill -9 in the middle of a burst loses no acknowledged record
/// (`EventStoreKillTests`, `EventStoreCrashTests`).
///
/// **Connections.** SQLite's C API, through a small pool of its own: one writer connection that every write goes
/// through, one at a time, plus reader connections that see the last committed state while a write is in progress,
/// so a live view or an export reading the store never stalls an adapter's inserts (one shared connection would
/// serialise them).
///
/// **Schema.** A `streams` table holds each stream's ``AxonStreams/StreamDescriptor`` as JSON, keyed by source id
/// and stream name; each stream's records live in a table of their own, `events_<id>_<sanitized name>`, with the
/// device record id as a unique key. Re-sent records whose content differs go to `event_conflicts`. The fixed
/// tables are created by migrations recorded in `grdb_migrations` (the table name of the GRDB migrator that
/// wrote earlier versions' files, kept so they open as they are); a file migrated by a newer version is refused
/// (``EventStoreError/schemaTooNew(path:unknownMigrations:)``) rather than written to.
///
/// ```swift
/// let store = try EventStore(path: "/var/lib/axon/events.sqlite")
/// let scale = try store.register(StreamDescriptor(
///     name: "Weight", contentType: "Weight", channels: [ChannelInfo(label: "weight", unit: "kg")],
///     nominalRate: 0, format: .float32, sourceID: "scale-0042"))
/// let outcome = try store.insert(scale, record: StoredEvent(
///     deviceRecordID: "slot7@1763800000", deviceTime: 1_763_800_000, payload: Measurement(kg: 71.4)))
/// // .inserted or .duplicate: on disk now, safe to tell the scale to erase the slot
/// let today = try store.events(in: scale, from: 1_763_769_600, to: 1_763_856_000, as: Measurement.self)
/// ```
///
/// Threading: `Sendable`; call it from any thread. Writes (``register(_:ifChanged:)``, inserts) run one at a time
/// on the writer connection, in call order per thread; reads run concurrently with writes and with each other. Every
/// call blocks its caller until SQLite is done (for a write: until the `fsync`).
public final class EventStore: Sendable {
    /// The database file's path.
    public let path: String
    let pool: SQLitePool
    /// Registered streams by id: checks that a handle belongs to this store without a query.
    let knownStreams: ThreadLocked<[Int64: StreamHandle]>

    /// Opens (creating it if needed) the store at `path`, migrates its schema and sets WAL + `synchronous = FULL`.
    ///
    /// - Throws: ``EventStoreError/cannotOpen(path:code:reason:)`` when the folder is missing, the file is not an
    ///   SQLite database or WAL mode is refused; ``EventStoreError/schemaTooNew(path:unknownMigrations:)`` for a
    ///   file from a newer version; ``EventStoreError/sqlite(code:message:sql:)`` when a migration fails.
    public convenience init(path: String) throws(EventStoreError) {
        try self.init(path: path, laterMigrations: [])
    }

    /// Opens the store with extra migrations after this build's own: `(identifier, SQL)` pairs. Tests use it to
    /// write a file as a newer version would.
    init(path: String, laterMigrations: [(identifier: String, sql: String)]) throws(EventStoreError) {
        self.path = path
        let pool: SQLitePool
        do {
            pool = try SQLitePool(path: path)
        } catch {
            throw .cannotOpen(path: path, code: error.code, reason: error.message)
        }
        var migrations = Self.migrations
        for (identifier, sql) in laterMigrations { migrations.register(identifier, sql: sql) }
        let knownIdentifiers = Self.migrationIdentifiers.union(laterMigrations.map(\.identifier))
        let path = path
        let streams = try EventStoreError.wrapping { () throws -> [Int64: StreamHandle] in
            let unknown = try migrations.appliedIdentifiers(pool).subtracting(knownIdentifiers)
            guard unknown.isEmpty else {
                throw EventStoreError.schemaTooNew(path: path, unknownMigrations: unknown.sorted())
            }
            try migrations.migrate(pool)
            return try pool.read { db in
                Dictionary(uniqueKeysWithValues: try Self.fetchStreams(db).map { ($0.handle.id, $0.handle) })
            }
        }
        self.pool = pool
        knownStreams = ThreadLocked(streams)
    }

    /// The journal mode and `synchronous` level of the writer connection, as SQLite reports them
    /// (`("wal", 2)` for FULL). For tests and diagnostics.
    ///
    /// Threading: any thread; runs on the writer queue.
    public func durabilitySettings() throws(EventStoreError) -> (journalMode: String, synchronous: Int) {
        try EventStoreError.wrapping {
            try pool.writeWithoutTransaction { db in
                let mode = try db.texts("PRAGMA journal_mode").first ?? ""
                let level = try db.integer("PRAGMA synchronous") ?? -1
                return (mode, Int(level))
            }
        }
    }

    /// Runs SQLite's `PRAGMA integrity_check` and returns its lines: `["ok"]` for a sound file.
    ///
    /// Threading: any thread; reads a snapshot. Complexity: reads the whole file.
    public func integrityCheck() throws(EventStoreError) -> [String] {
        try EventStoreError.wrapping {
            try pool.read { db in try db.texts("PRAGMA integrity_check") }
        }
    }

    /// The handle for `handle.id` if it names a stream of this file: known since open or registration, or
    /// registered since by another `EventStore` on the same file. Else
    /// ``EventStoreError/unknownStream(id:sourceID:name:)``.
    func checked(_ handle: StreamHandle) throws(EventStoreError) -> StreamHandle {
        if let known = knownStreams.withLock({ $0[handle.id] }), known == handle { return known }
        let stored = try EventStoreError.wrapping {
            try pool.read { db in try Self.fetchStreams(db).first { $0.handle.id == handle.id }?.handle }
        }
        guard let stored, stored == handle else {
            throw .unknownStream(id: handle.id, sourceID: handle.sourceID, name: handle.name)
        }
        knownStreams.withLock { $0[stored.id] = stored }
        return stored
    }
}
