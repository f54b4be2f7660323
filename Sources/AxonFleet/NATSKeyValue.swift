import CNATS

/// A JetStream key-value bucket: values with revisions, compare-and-set updates, and (with a TTL) keys that vanish
/// unless rewritten — the fleet's leases and checkpoints.
///
/// Threading: libnats key-value handles are thread-safe; `@unchecked Sendable` (the pointer is set once).
public final class NATSKeyValue: @unchecked Sendable {
    /// The bucket's name.
    public let bucket: String
    private let kv: OpaquePointer
    private let owner: NATSConnection

    init(_ kv: OpaquePointer, bucket: String, owner: NATSConnection) {
        self.kv = kv
        self.bucket = bucket
        self.owner = owner
    }

    deinit { kvStore_Destroy(kv) }

    /// A value with its revision.
    public struct Entry: Sendable {
        /// The value's bytes.
        public var value: [UInt8]
        /// Its revision (the bucket stream's sequence): the `last` of the next ``update(_:value:last:)``.
        public var revision: UInt64
    }

    /// The current value of `key`, or `nil` when it does not exist (never written, deleted or expired).
    ///
    /// Read from the bucket stream's leader (`$JS.API.STREAM.MSG.GET`), not with libnats' `kvStore_Get`: the buckets
    /// allow direct gets, which any replica answers, and a replica that is catching up (a server just restarted, or
    /// resumed after a pause) answers with an older revision. Leases judged by their revisions and checkpoints
    /// written by compare-and-set need the leader's.
    public func get(_ key: String) throws(NATSError) -> Entry? {
        var message: OpaquePointer?
        var code = jsErrCode(rawValue: 0)
        let status = js_GetLastMsg(&message, owner.jetStream, "KV_\(bucket)", "$KV.\(bucket).\(key)", nil, &code)
        if status == NATS_NOT_FOUND { return nil }
        try natsCheck(status, "get \(bucket)/\(key)", code)
        defer { natsMsg_Destroy(message) }
        var operation: UnsafePointer<CChar>?
        if natsMsgHeader_Get(message, "KV-Operation", &operation) == NATS_OK, let operation {
            let text = String(cString: operation)
            if text == "DEL" || text == "PURGE" { return nil }
        }
        let length = Int(natsMsg_GetDataLength(message))
        var value = [UInt8](repeating: 0, count: length)
        if length > 0, let bytes = natsMsg_GetData(message) {
            value.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: length)) }
        }
        return Entry(value: value, revision: natsMsg_GetSequence(message))
    }

    /// Writes `key` unconditionally; returns the new revision.
    @discardableResult
    public func put(_ key: String, value: [UInt8]) throws(NATSError) -> UInt64 {
        var revision: UInt64 = 0
        let status = value.withUnsafeBytes { kvStore_Put(&revision, kv, key, $0.baseAddress, Int32($0.count)) }
        try natsCheck(status, "put \(bucket)/\(key)")
        return revision
    }

    /// Creates `key` only if it does not exist (or was deleted or expired); returns the revision.
    ///
    /// - Throws: ``NATSError`` with `isWrongRevision` when someone else holds the key.
    public func create(_ key: String, value: [UInt8]) throws(NATSError) -> UInt64 {
        var revision: UInt64 = 0
        let status = value.withUnsafeBytes { kvStore_Create(&revision, kv, key, $0.baseAddress, Int32($0.count)) }
        try natsCheck(status, "create \(bucket)/\(key)", Self.lastJetStreamCode(status))
        return revision
    }

    /// Writes `key` only if its revision is still `last` (compare-and-set); returns the new revision.
    ///
    /// - Throws: ``NATSError`` with `isWrongRevision` when the key moved on (another writer, or it expired).
    public func update(_ key: String, value: [UInt8], last: UInt64) throws(NATSError) -> UInt64 {
        var revision: UInt64 = 0
        let status = value.withUnsafeBytes { kvStore_Update(&revision, kv, key, $0.baseAddress, Int32($0.count), last) }
        try natsCheck(status, "update \(bucket)/\(key)", Self.lastJetStreamCode(status))
        return revision
    }

    /// Deletes `key` (a tombstone: ``create(_:value:)`` succeeds again).
    public func delete(_ key: String) throws(NATSError) {
        try natsCheck(kvStore_Delete(kv, key), "delete \(bucket)/\(key)")
    }

    /// The keys of the bucket: one stream-info request (`KV_<bucket>` with a subjects filter) bounded by the
    /// connection's timeout. It may include keys deleted by a tombstone (``get(_:)`` then returns `nil`).
    /// libnats' own `kvStore_Keys` is not used: it runs a watcher that stalled for up to a minute while the
    /// cluster was electing leaders, and the lease thread must not stall. O(keys) in the answer.
    public func keys() throws(NATSError) -> [String] {
        var options = jsOptions()
        try natsCheck(jsOptions_Init(&options), "init JetStream options")
        let prefix = "$KV.\(bucket)."
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(rawValue: 0)
        let status = (prefix + ">").withCString { filter in
            options.Stream.Info.SubjectsFilter = filter
            return js_GetStreamInfo(&info, owner.jetStream, "KV_\(bucket)", &options, &code)
        }
        try natsCheck(status, "list keys of \(bucket)", code)
        defer { jsStreamInfo_Destroy(info) }
        guard let subjects = info?.pointee.State.Subjects else { return [] }
        return (0..<Int(subjects.pointee.Count)).compactMap { index in
            subjects.pointee.List[index].Subject.map { String(String(cString: $0).dropFirst(prefix.count)) }
        }
    }

    /// libnats reports a failed expected-revision check as `NATS_ERR` with the server's text; the KV calls take no
    /// `jsErrCode` out-parameter, so recognise it from the thread's last error text.
    private static func lastJetStreamCode(_ status: natsStatus) -> jsErrCode {
        guard status != NATS_OK else { return jsErrCode(rawValue: 0) }
        var last = NATS_OK
        let text = nats_GetLastError(&last).map { String(cString: $0) } ?? ""
        return text.contains("wrong last sequence") || text.contains("10071") ? jsErrCode(rawValue: 10071)
            : jsErrCode(rawValue: 0)
    }
}
