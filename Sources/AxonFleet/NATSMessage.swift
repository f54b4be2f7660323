import CNATS

/// A message received from JetStream, copied out of libnats: subject, payload, the headers Axon reads, and where
/// it sits in its stream.
///
/// Threading: a plain value, `Sendable`.
public struct NATSMessage: Sendable {
    /// The subject it was published on.
    public let subject: String
    /// The payload.
    public let data: [UInt8]
    /// Header values by key (the first value of each key).
    public let headers: [String: String]
    /// Its sequence in the stream (0 for a message that did not come from JetStream).
    public let streamSequence: UInt64
    /// When the stream stored it, Unix nanoseconds (0 when unknown).
    public let timestamp: Int64

    /// A message made by hand (tests, tools).
    init(subject: String, data: [UInt8], headers: [String: String], streamSequence: UInt64, timestamp: Int64) {
        self.subject = subject
        self.data = data
        self.headers = headers
        self.streamSequence = streamSequence
        self.timestamp = timestamp
    }

    /// Copies `message` (a `natsMsg *`; not destroyed here), reading the headers named in `keys`.
    init(_ message: OpaquePointer, keys: [String]) {
        subject = natsMsg_GetSubject(message).map { String(cString: $0) } ?? ""
        let length = Int(natsMsg_GetDataLength(message))
        if length > 0, let bytes = natsMsg_GetData(message) {
            data = bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
        } else {
            data = []
        }
        var headers: [String: String] = [:]
        for key in keys {
            var value: UnsafePointer<CChar>?
            if natsMsgHeader_Get(message, key, &value) == NATS_OK, let value { headers[key] = String(cString: value) }
        }
        self.headers = headers
        var meta: UnsafeMutablePointer<jsMsgMetaData>?
        if natsMsg_GetMetaData(&meta, message) == NATS_OK, let meta {
            streamSequence = meta.pointee.Sequence.Stream
            timestamp = meta.pointee.Timestamp
            jsMsgMetaData_Destroy(meta)
        } else {
            streamSequence = natsMsg_GetSequence(message)
            timestamp = natsMsg_GetTime(message)
        }
    }
}
