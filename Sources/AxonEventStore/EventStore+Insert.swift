import Foundation

extension EventStore {
    /// Stores one record durably and says whether it was new: when this returns, the transaction has committed
    /// and SQLite has `fsync`ed the WAL (`synchronous = FULL`), so the adapter may acknowledge the record to the
    /// device.
    ///
    /// Idempotent on (stream, `deviceRecordID`): the same record sent again is stored once
    /// (``InsertOutcome/duplicate``).
    /// The same id with a different payload or device time keeps the first record and logs the new one as a
    /// conflict (``InsertOutcome/conflict``, ``conflicts(in:)``) — an outcome, not an error, so one odd record in a
    /// batch does not hold back the others. Host time is not compared: a re-send arrives later by nature.
    ///
    /// - Throws: ``EventStoreError/invalidRecord(deviceRecordID:reason:)`` (empty id, non-finite time),
    ///   ``EventStoreError/unknownStream(id:sourceID:name:)``, ``EventStoreError/encodingFailed(type:cause:)``,
    ///   ``EventStoreError/sqlite(code:message:sql:)`` (disk full, I/O error: then nothing was stored).
    ///
    /// Threading: any thread; one write transaction on the writer connection. Cost: one `fsync` (milliseconds on a
    /// disk); use ``insert(_:batch:)`` for many records.
    @discardableResult
    public func insert<P: Codable & Sendable>(
        _ stream: StreamHandle, record: StoredEvent<P>
    ) throws(EventStoreError) -> InsertOutcome {
        try insert(stream, batch: [record])[0]
    }

    /// Stores `payload` as a record (see ``insert(_:record:)``).
    ///
    /// Threading: any thread; one write transaction.
    @discardableResult
    public func insert<P: Codable & Sendable>(
        _ stream: StreamHandle, deviceRecordID: String, deviceTime: Double? = nil,
        hostTime: Double = Date().timeIntervalSince1970, payload: P
    ) throws(EventStoreError) -> InsertOutcome {
        try insert(
            stream,
            record: StoredEvent(
                deviceRecordID: deviceRecordID, deviceTime: deviceTime, hostTime: hostTime, payload: payload))
    }

    /// Stores many records in one transaction — one `fsync` for all — and returns one outcome per record, in
    /// order. A device record id repeated inside the batch is a duplicate (or conflict) of its first occurrence.
    ///
    /// All or nothing: every record is validated and encoded before the transaction starts, and an SQLite error
    /// rolls the whole batch back, so a throw means none of the batch was stored.
    ///
    /// Threading: any thread; one write transaction. Complexity: O(n log m) for n records into a stream of m.
    @discardableResult
    public func insert<P: Codable & Sendable>(
        _ stream: StreamHandle, batch: [StoredEvent<P>]
    ) throws(EventStoreError) -> [InsertOutcome] {
        let stream = try checked(stream)
        var rows: [EncodedRecord] = []
        rows.reserveCapacity(batch.count)
        for record in batch {
            try Self.validate(record)
            rows.append(
                EncodedRecord(
                    id: record.deviceRecordID, deviceTime: record.deviceTime, hostTime: record.hostTime,
                    payload: try Self.encodeJSON(record.payload)))
        }
        guard !rows.isEmpty else { return [] }
        let table = Self.quotedIdentifier(stream.tableName)
        let rowsToWrite = rows
        return try EventStoreError.wrapping {
            try pool.write { db -> [InsertOutcome] in
                let insert = try db.statement(
                    """
                    INSERT INTO \(table) (device_record_id, device_time, host_time, time, payload)
                    VALUES (?, ?, ?, ?, ?) ON CONFLICT (device_record_id) DO NOTHING
                    """)
                let existing = try db.statement("SELECT device_time, payload FROM \(table) WHERE device_record_id = ?")
                let logConflict = try db.statement(
                    """
                    INSERT INTO event_conflicts (stream_id, device_record_id, device_time, host_time, payload)
                    VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """)
                return try rowsToWrite.map { row -> InsertOutcome in
                    try insert.run([
                        .text(row.id), .real(row.deviceTime), .real(row.hostTime),
                        .real(row.deviceTime ?? row.hostTime), .text(row.payload),
                    ])
                    if db.changes == 1 { return .inserted }
                    guard
                        let stored = try existing.rows([.text(row.id)], { ($0.double(0), $0.text(1)) }).first
                    else {
                        throw EventStoreError.sqlite(
                            code: 1, message: "record \"\(row.id)\" was neither inserted nor found", sql: nil)
                    }
                    if stored.0 == row.deviceTime && stored.1 == row.payload { return .duplicate }
                    try logConflict.run([
                        .integer(stream.id), .text(row.id), .real(row.deviceTime), .real(row.hostTime),
                        .text(row.payload),
                    ])
                    return .conflict
                }
            }
        }
    }

    static func validate<P>(_ record: StoredEvent<P>) throws(EventStoreError) {
        guard !record.deviceRecordID.isEmpty else {
            throw .invalidRecord(deviceRecordID: "", reason: "the device record id is empty")
        }
        guard record.hostTime.isFinite else {
            throw .invalidRecord(deviceRecordID: record.deviceRecordID, reason: "host time \(record.hostTime)")
        }
        if let time = record.deviceTime, !time.isFinite {
            throw .invalidRecord(deviceRecordID: record.deviceRecordID, reason: "device time \(time)")
        }
    }
}

/// A record ready for SQLite: times checked, payload encoded.
struct EncodedRecord: Sendable {
    let id: String
    let deviceTime: Double?
    let hostTime: Double
    let payload: String
}
