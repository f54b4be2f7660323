import CNATS

/// A failed libnats call: which operation, the library's status and its text (`natsStatus_GetText`), the thread's
/// last error detail, and the JetStream error code when the server gave one.
///
/// Threading: a plain value, `Sendable`.
public struct NATSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done ("connect", "publish axon.raw.3.dev-1", …).
    public let operation: String
    /// The `natsStatus` value.
    public let status: Int
    /// `natsStatus_GetText` of the status.
    public let text: String
    /// `nats_GetLastError`'s detail on the calling thread, when it adds anything.
    public let detail: String
    /// The JetStream API error code (`jsErrCode`), 0 when none.
    public let jetStreamCode: Int
    /// A publish the stream acknowledged as a duplicate with sequence 0: the first copy was not stored yet.
    public let isUnconfirmedDuplicate: Bool

    /// Creates an error from a status; `fenced` marks a compare-and-set lost to another writer,
    /// `unconfirmedDuplicate` a duplicate acknowledgement that names no stored message.
    init(
        _ operation: String, status: natsStatus, jetStreamCode: jsErrCode = jsErrCode(rawValue: 0), fenced: Bool = false,
        unconfirmedDuplicate: Bool = false
    ) {
        self.operation = operation
        self.status = Int(status.rawValue)
        self.isUnconfirmedDuplicate = unconfirmedDuplicate
        self.text = unconfirmedDuplicate
            ? "acknowledged as a duplicate of a message the stream has not stored yet"
            : natsStatus_GetText(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        var last = NATS_OK
        let detail = unconfirmedDuplicate ? "" : nats_GetLastError(&last).map { String(cString: $0) } ?? ""
        self.detail = detail == self.text ? "" : detail
        self.jetStreamCode = fenced ? 10071 : Int(jetStreamCode.rawValue)
    }

    /// The operation timed out (no answer in time: a broker down or paused).
    public var isTimeout: Bool { status == Int(NATS_TIMEOUT.rawValue) }
    /// Nobody answered the request at once: a stream without a leader (one being elected) or without a server.
    public var isNoResponders: Bool { status == Int(NATS_NO_RESPONDERS.rawValue) }
    /// The server refused the client's credentials (missing, wrong, or an NKey whose signature does not verify):
    /// libnats' `NATS_CONNECTION_AUTH_FAILED` after the server's "Authorization Violation".
    public var isAuthenticationFailure: Bool { status == Int(NATS_CONNECTION_AUTH_FAILED.rawValue) }
    /// The key, message, stream or consumer does not exist.
    public var isNotFound: Bool { status == Int(NATS_NOT_FOUND.rawValue) }
    /// A key-value create or update lost its race: the key exists or moved on (JetStream "wrong last sequence").
    public var isWrongRevision: Bool { jetStreamCode == 10071 }

    /// "publish axon.raw.1.a: Timeout (…detail) [JetStream 10071]".
    public var description: String {
        var result = "\(operation): \(text)"
        if !detail.isEmpty { result += " (\(detail))" }
        if jetStreamCode != 0 { result += " [JetStream \(jetStreamCode)]" }
        return result
    }
}

/// Throws ``NATSError`` unless `status` is `NATS_OK`.
@inline(__always)
func natsCheck(_ status: natsStatus, _ operation: @autoclosure () -> String, _ code: jsErrCode = jsErrCode(rawValue: 0))
    throws(NATSError)
{
    guard status == NATS_OK else { throw NATSError(operation(), status: status, jetStreamCode: code) }
}
