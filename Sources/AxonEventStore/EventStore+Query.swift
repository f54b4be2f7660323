import Foundation

extension EventStore {
    /// The records of a stream whose time (device time, else host time) is in `from ..< to`, ordered by that time
    /// and then by arrival, at most `limit` of them. `nil` bounds are open.
    ///
    /// - Throws: ``EventStoreError/unknownStream(id:sourceID:name:)``,
    ///   ``EventStoreError/decodingFailed(type:deviceRecordID:cause:)`` when a stored payload is not a `P`.
    ///
    /// Threading: any thread; reads a committed snapshot, concurrently with writes. Complexity: O(log n + k) via
    /// the `(time, seq)` index.
    public func events<P: Codable & Sendable>(
        in stream: StreamHandle, from: Double? = nil, to: Double? = nil, limit: Int? = nil, as type: P.Type
    ) throws(EventStoreError) -> [StoredEvent<P>] {
        let stream = try checked(stream)
        let table = Self.quotedIdentifier(stream.tableName)
        let rows = try EventStoreError.wrapping {
            try pool.read { db in
                try db.statement(
                    """
                    SELECT device_record_id, device_time, host_time, payload FROM \(table)
                    WHERE time >= ? AND time < ? ORDER BY time, seq LIMIT ?
                    """
                ).rows([
                    .real(from ?? -Double.infinity), .real(to ?? Double.infinity),
                    .integer(Int64(limit.map { max(0, $0) } ?? -1)),
                ]) { row in
                    (id: row.text(0), deviceTime: row.double(1), hostTime: row.double(2) ?? 0, json: row.text(3))
                }
            }
        }
        let decoder = JSONDecoder()
        var events: [StoredEvent<P>] = []
        events.reserveCapacity(rows.count)
        for row in rows {
            let payload: P
            do {
                payload = try decoder.decode(P.self, from: Data(row.json.utf8))
            } catch {
                throw .decodingFailed(type: "\(P.self)", deviceRecordID: row.id, cause: error)
            }
            events.append(
                StoredEvent(
                    deviceRecordID: row.id, deviceTime: row.deviceTime, hostTime: row.hostTime, payload: payload))
        }
        return events
    }

    /// How many records a stream holds (duplicates and conflicts not counted).
    ///
    /// Threading: any thread; reads a committed snapshot.
    public func count(in stream: StreamHandle) throws(EventStoreError) -> Int {
        let table = Self.quotedIdentifier(try checked(stream).tableName)
        return try EventStoreError.wrapping {
            try pool.read { db in Int(try db.integer("SELECT COUNT(*) FROM \(table)") ?? 0) }
        }
    }

    /// Whether a stream holds a record with this device record id.
    ///
    /// Threading: any thread; reads a committed snapshot.
    public func contains(_ deviceRecordID: String, in stream: StreamHandle) throws(EventStoreError) -> Bool {
        let table = Self.quotedIdentifier(try checked(stream).tableName)
        return try EventStoreError.wrapping {
            try pool.read { db in
                try db.integer(
                    "SELECT EXISTS (SELECT 1 FROM \(table) WHERE device_record_id = ?)", [.text(deviceRecordID)]) == 1
            }
        }
    }

    /// Every device record id of a stream, in arrival order.
    ///
    /// Threading: any thread; reads a committed snapshot. Complexity: O(n).
    public func deviceRecordIDs(in stream: StreamHandle) throws(EventStoreError) -> [String] {
        let table = Self.quotedIdentifier(try checked(stream).tableName)
        return try EventStoreError.wrapping {
            try pool.read { db in try db.texts("SELECT device_record_id FROM \(table) ORDER BY seq") }
        }
    }

    /// The re-sent records of a stream that differed from the stored ones (``InsertOutcome/conflict``), oldest
    /// first.
    ///
    /// Threading: any thread; reads a committed snapshot.
    public func conflicts(in stream: StreamHandle) throws(EventStoreError) -> [EventConflict] {
        let stream = try checked(stream)
        return try EventStoreError.wrapping {
            try pool.read { db in
                try db.statement(
                    """
                    SELECT device_record_id, device_time, host_time, payload FROM event_conflicts
                    WHERE stream_id = ? ORDER BY id
                    """
                ).rows([.integer(stream.id)]) { row in
                    EventConflict(
                        deviceRecordID: row.text(0), deviceTime: row.double(1), hostTime: row.double(2) ?? 0,
                        payloadJSON: row.text(3))
                }
            }
        }
    }
}
