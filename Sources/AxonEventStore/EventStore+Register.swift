import AxonStreams
import Foundation

extension EventStore {
    /// Registers an event stream, or finds it: the same source id and name give the same handle every time, in
    /// this process and after reopening the file.
    ///
    /// A different descriptor for a stream already registered (new firmware metadata, a renamed channel) is
    /// refused by default (`.reject` throws ``EventStoreError/descriptorChanged(sourceID:name:)``); with
    /// `.replace` the new descriptor is stored, the old one moves to `stream_descriptor_history`, the revision goes
    /// up by one and every stored record stays, still de-duplicated against the new ones.
    ///
    /// Threading: any thread; one write transaction (durable on return). Complexity: O(1) queries.
    @discardableResult
    public func register(
        _ descriptor: StreamDescriptor, ifChanged policy: DescriptorChangePolicy = .reject
    ) throws(EventStoreError) -> StreamHandle {
        let json = try Self.encodeJSON(descriptor)
        let handle = try EventStoreError.wrapping {
            try pool.write { db -> StreamHandle in
                let found = try db.statement(
                    "SELECT id, descriptor_json, revision, table_name FROM streams WHERE source_id = ? AND name = ?"
                ).rows([.text(descriptor.sourceID), .text(descriptor.name)]) { row in
                    (id: row.int64(0), json: row.text(1), revision: row.int64(2), table: row.text(3))
                }
                if let row = found.first {
                    let handle = StreamHandle(
                        id: row.id, sourceID: descriptor.sourceID, name: descriptor.name, tableName: row.table)
                    let stored = try Self.decodeDescriptor(row.json, handle: handle)
                    guard stored != descriptor else { return handle }
                    guard policy == .replace else {
                        throw EventStoreError.descriptorChanged(sourceID: descriptor.sourceID, name: descriptor.name)
                    }
                    try db.statement(
                        """
                        INSERT INTO stream_descriptor_history (stream_id, revision, descriptor_json, replaced_at)
                        VALUES (?, ?, ?, ?)
                        """
                    ).run([
                        .integer(handle.id), .integer(row.revision), .text(row.json),
                        .real(Date().timeIntervalSince1970),
                    ])
                    try db.statement("UPDATE streams SET descriptor_json = ?, revision = ? WHERE id = ?")
                        .run([.text(json), .integer(row.revision + 1), .integer(handle.id)])
                    return handle
                }
                // The table name contains the stream's id: take the next id explicitly (this write transaction is
                // the only writer), so the row goes in complete in one statement.
                let id = try db.integer("SELECT COALESCE(MAX(id), 0) + 1 FROM streams") ?? 1
                let table = Self.tableName(id: id, descriptor: descriptor)
                try db.statement(
                    """
                    INSERT INTO streams (id, source_id, name, descriptor_json, table_name, registered_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """
                ).run([
                    .integer(id), .text(descriptor.sourceID), .text(descriptor.name), .text(json), .text(table),
                    .real(Date().timeIntervalSince1970),
                ])
                try Self.createEventTable(db, named: table)
                return StreamHandle(id: id, sourceID: descriptor.sourceID, name: descriptor.name, tableName: table)
            }
        }
        knownStreams.withLock { $0[handle.id] = handle }
        return handle
    }

    /// Every registered stream with its stored descriptor and revision, in registration order.
    ///
    /// Threading: any thread; reads a committed snapshot.
    public func streams() throws(EventStoreError) -> [StoredStream] {
        try EventStoreError.wrapping { try pool.read { db in try Self.fetchStreams(db) } }
    }

    /// The handle of the stream registered for `sourceID` and `name`, or `nil`: streams found when the store was
    /// opened or registered through it since (``streams()`` reads the file for all).
    ///
    /// Threading: any thread; lock-protected lookup of this store's handles, no query.
    public func stream(sourceID: String, name: String) -> StreamHandle? {
        knownStreams.withLock { streams in streams.values.first { $0.sourceID == sourceID && $0.name == name } }
    }
}
