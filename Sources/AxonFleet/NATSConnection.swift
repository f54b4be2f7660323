import CNATS
import Foundation

/// One connection to a NATS cluster with its JetStream context: publish with de-duplication ids, streams,
/// key-value buckets and ordered consumers.
///
/// libnats connections, JetStream contexts and key-value handles are safe to use from several threads, so this
/// type is `@unchecked Sendable` (its pointers are set once in `init` and released once in `deinit`). Callbacks of
/// subscriptions run on libnats' delivery threads, one thread per subscription, one message at a time.
///
///     let nats = try NATSConnection(.init(urls: ["nats://127.0.0.1:4222"]))
///     try nats.publish(subject: "axon.raw.3.dev-1", data: bytes, headers: ["Axon-Device": "dev-1"], messageID: "dev-1.0")
public final class NATSConnection: @unchecked Sendable {
    /// The options it connected with.
    public let options: NATSOptions
    let connection: OpaquePointer
    let jetStream: OpaquePointer

    /// Connects to the first reachable server of `options.urls` and opens the JetStream context.
    ///
    /// - Throws: ``NATSError`` when no server answers, authentication fails or an option is refused.
    /// - Complexity: one connect round trip; blocks up to `options.timeout` per server.
    public init(_ options: NATSOptions) throws(NATSError) {
        self.options = options
        var opts: OpaquePointer?
        try natsCheck(natsOptions_Create(&opts), "create options")
        defer { natsOptions_Destroy(opts) }
        try Self.configure(opts!, options)
        var jsOpts = jsOptions()
        try natsCheck(jsOptions_Init(&jsOpts), "init JetStream options")
        jsOpts.Wait = Int64(options.timeout * 1000)
        let connection = try Self.connect(opts!, options)
        var js: OpaquePointer?
        let status = natsConnection_JetStream(&js, connection, &jsOpts)
        guard status == NATS_OK, let js else {
            natsConnection_Destroy(connection)
            throw NATSError("open JetStream", status: status)
        }
        self.connection = connection
        self.jetStream = js
    }

    /// How many times a client whose credentials sign the server's nonce tries before an authentication refusal
    /// stands: libnats 3.4 (Debian 12's) base64-encodes the signature only when its first byte is not zero, so one
    /// CONNECT in 256 goes out without `sig` and is refused (fixed in nats.c 3.8, nats-io/nats.c#705). Every attempt
    /// gets a new nonce, hence a new signature: four attempts leave one refusal in 2³² of a right key, and a wrong key
    /// is still refused, four times over, in milliseconds.
    static let signedConnectAttempts = 4

    private static func connect(_ opts: OpaquePointer, _ options: NATSOptions) throws(NATSError) -> OpaquePointer {
        let attempts: Int
        switch options.credentials {
        case .nkey, .credentialsFile: attempts = signedConnectAttempts
        case .none, .userPassword, .token: attempts = 1
        }
        var attempt = 1
        while true {
            var connection: OpaquePointer?
            let status = natsConnection_Connect(&connection, opts)
            if status == NATS_OK, let connection { return connection }
            let error = NATSError("connect to \(options.urls.joined(separator: ","))", status: status)
            guard error.isAuthenticationFailure, attempt < attempts else { throw error }
            attempt += 1
        }
    }

    private static func configure(_ opts: OpaquePointer, _ options: NATSOptions) throws(NATSError) {
        let servers = options.serverURLs
        guard !servers.isEmpty else { throw NATSError("connect", status: NATS_INVALID_ARG) }
        let urls = servers.map { strdup($0) }
        defer { urls.forEach { free($0) } }
        var pointers = urls.map { UnsafePointer<CChar>($0) }
        try natsCheck(natsOptions_SetServers(opts, &pointers, Int32(pointers.count)), "set servers")
        try natsCheck(natsOptions_SetName(opts, options.name), "set name")
        try natsCheck(natsOptions_SetTimeout(opts, Int64(options.timeout * 1000)), "set timeout")
        if options.reconnectForever {
            try natsCheck(natsOptions_SetMaxReconnect(opts, -1), "set reconnects")
        }
        try natsCheck(natsOptions_SetReconnectWait(opts, 250), "set reconnect wait")
        switch options.credentials {
        case .none:
            break
        case .userPassword(let user, let password):
            try natsCheck(natsOptions_SetUserInfo(opts, user, password), "set user")
        case .token(let token):
            try natsCheck(natsOptions_SetToken(opts, token), "set token")
        case .nkey(let publicKey, let seedFile):
            try natsCheck(natsOptions_SetNKeyFromSeed(opts, publicKey, seedFile), "set nkey from \(seedFile)")
        case .credentialsFile(let path):
            try natsCheck(natsOptions_SetUserCredentialsFromFiles(opts, path, nil), "set credentials from \(path)")
        }
    }

    deinit {
        jsCtx_Destroy(jetStream)
        natsConnection_Close(connection)
        natsConnection_Destroy(connection)
    }

    /// The URL of the server the connection is on now, or `nil` while reconnecting.
    public var connectedURL: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard natsConnection_GetConnectedUrl(connection, &buffer, buffer.count) == NATS_OK else { return nil }
        let url = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return url.isEmpty ? nil : url
    }

    // MARK: - Publishing

    /// What JetStream answered to a publish.
    public struct PublishAck: Sendable, Hashable {
        /// The message's sequence in its stream.
        public var sequence: UInt64
        /// The stream had already stored a message with this id within its duplicate window; nothing new was stored.
        public var duplicate: Bool
    }

    /// Publishes `data` to a JetStream subject and waits for the stream's acknowledgement.
    ///
    /// - Parameters:
    ///   - headers: header values; empty ones are not sent.
    ///   - messageID: the `Nats-Msg-Id`: a retry with the same id inside the stream's duplicate window is
    ///     acknowledged as a duplicate and not stored twice.
    ///   - timeout: seconds to wait for the acknowledgement (default: the connection's timeout).
    /// - Throws: ``NATSError``: `isTimeout` when no acknowledgement came (the broker is down, paused or has lost
    ///   quorum); `isUnconfirmedDuplicate` when the stream called it a duplicate of a copy it had not stored yet
    ///   (which a leader change may still drop). Either way the caller keeps the data and retries with the same id.
    /// - Complexity: one round trip to the stream leader (which waits for a replica quorum).
    @discardableResult
    public func publish(
        subject: String, data: [UInt8], headers: [String: String] = [:], messageID: String, timeout: Double? = nil
    ) throws(NATSError) -> PublishAck {
        let message = try Self.message(subject: subject, data: data, headers: headers)
        defer { natsMsg_Destroy(message) }
        var pubOptions = jsPubOptions()
        try natsCheck(jsPubOptions_Init(&pubOptions), "init publish options")
        pubOptions.MaxWait = Int64((timeout ?? options.timeout) * 1000)
        var ack: UnsafeMutablePointer<jsPubAck>?
        var code = jsErrCode(rawValue: 0)
        let status = messageID.withCString { id in
            pubOptions.MsgId = id
            return js_PublishMsg(&ack, jetStream, message, &pubOptions, &code)
        }
        try natsCheck(status, "publish \(subject)", code)
        defer { jsPubAck_Destroy(ack) }
        let answer = PublishAck(sequence: ack?.pointee.Sequence ?? 0, duplicate: ack?.pointee.Duplicate ?? false)
        // A clustered stream on nats-server before 2.11 notes a message id when it proposes the message, not when it
        // stores it, and answers a copy that comes meanwhile "duplicate" with sequence 0 and no error. If a leader
        // change then drops the proposal, nothing was stored. A duplicate naming a sequence is not proof either: a
        // leader paused and deposed answers from its own proposals until it learns of its successor
        // (``storedMessageID(stream:sequence:)`` tells, once the election is over).
        if answer.duplicate, answer.sequence == 0 {
            throw NATSError("publish \(subject)", status: NATS_ERR, unconfirmedDuplicate: true)
        }
        return answer
    }

    /// A libnats message with `data` and the non-empty `headers`; the caller destroys it (`natsMsg_Destroy`).
    static func message(subject: String, data: [UInt8], headers: [String: String]) throws(NATSError) -> OpaquePointer? {
        var message: OpaquePointer?
        let created = data.withUnsafeBufferPointer { buffer in
            natsMsg_Create(&message, subject, nil, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                           Int32(buffer.count))
        }
        try natsCheck(created, "create message for \(subject)")
        // An empty value would make libnats' header parser drop the headers after it on the receiving side.
        for (key, value) in headers where !value.isEmpty {
            do throws(NATSError) {
                try natsCheck(natsMsgHeader_Set(message, key, value), "set header \(key)")
            } catch {
                natsMsg_Destroy(message)
                throw error
            }
        }
        return message
    }

    // MARK: - Streams

    /// Creates the stream, or updates it to `spec` when it exists (limits can change; subjects and storage must
    /// stay compatible, which JetStream enforces).
    ///
    /// - Throws: ``NATSError``, for example when the cluster has fewer servers than `spec.replicas`.
    public func ensureStream(_ spec: FleetStreamSpec) throws(NATSError) {
        var config = jsStreamConfig()
        try natsCheck(jsStreamConfig_Init(&config), "init stream config")
        let subjects = spec.subjects.map { strdup($0) }
        defer { subjects.forEach { free($0) } }
        var pointers = subjects.map { UnsafePointer<CChar>($0) }
        var code = jsErrCode(rawValue: 0)
        var info: UnsafeMutablePointer<jsStreamInfo>?
        let status: natsStatus = spec.name.withCString { name in
            pointers.withUnsafeMutableBufferPointer { subjectList in
                config.Name = name
                config.Subjects = subjectList.baseAddress
                config.SubjectsLen = Int32(subjectList.count)
                config.Retention = js_LimitsPolicy
                config.Storage = js_FileStorage
                config.Replicas = Int64(spec.replicas)
                config.MaxAge = Int64(spec.maxAge * 1e9)
                config.MaxBytes = spec.maxBytes
                config.MaxMsgsPerSubject = spec.maxMessagesPerSubject
                config.MaxMsgSize = spec.maxMessageSize
                config.Discard = js_DiscardOld
                config.Duplicates = Int64(spec.duplicateWindow * 1e9)
                var status = js_AddStream(&info, jetStream, &config, nil, &code)
                if status != NATS_OK, code.rawValue == 10058 {  // the stream exists: bring it to this spec
                    code = jsErrCode(rawValue: 0)
                    status = js_UpdateStream(&info, jetStream, &config, nil, &code)
                }
                return status
            }
        }
        try natsCheck(status, "create stream \(spec.name)", code)
        jsStreamInfo_Destroy(info)
    }

    /// A stream's message count, bytes and sequences.
    public struct StreamState: Sendable, Hashable, Codable {
        /// Messages stored.
        public var messages: UInt64
        /// Bytes stored.
        public var bytes: UInt64
        /// First sequence stored.
        public var firstSequence: UInt64
        /// Last sequence stored.
        public var lastSequence: UInt64
        /// Replicas configured.
        public var replicas: Int
    }

    /// The state of stream `name`.
    public func streamState(_ name: String) throws(NATSError) -> StreamState {
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(rawValue: 0)
        try natsCheck(js_GetStreamInfo(&info, jetStream, name, nil, &code), "stream info \(name)", code)
        defer { jsStreamInfo_Destroy(info) }
        let state = info!.pointee.State
        return StreamState(
            messages: state.Msgs, bytes: state.Bytes, firstSequence: state.FirstSeq, lastSequence: state.LastSeq,
            replicas: Int(info!.pointee.Config.pointee.Replicas))
    }

    /// The `Nats-Msg-Id` of the message stream `stream` holds at `sequence`: `nil` when it holds none there (never
    /// stored, deleted, or aged out) or the message has no id. Answered by the stream's leader.
    ///
    /// - Throws: ``NATSError`` when the stream cannot be asked (a timeout, no leader).
    public func storedMessageID(stream: String, sequence: UInt64) throws(NATSError) -> String? {
        try storedMessage(stream: stream, sequence: sequence, headerKeys: ["Nats-Msg-Id"])?.headers["Nats-Msg-Id"]
    }

    /// The message stream `stream` holds at `sequence` with the headers named in `headerKeys`, `nil` when it holds
    /// none there. Answered by the stream's leader, not by a consumer.
    ///
    /// - Throws: ``NATSError`` when the stream cannot be asked (a timeout, no leader).
    public func storedMessage(stream: String, sequence: UInt64, headerKeys: [String]) throws(NATSError) -> NATSMessage? {
        var message: OpaquePointer?
        var code = jsErrCode(rawValue: 0)
        let status = js_GetMsg(&message, jetStream, stream, sequence, nil, &code)
        if status == NATS_NOT_FOUND { return nil }
        try natsCheck(status, "get \(stream) #\(sequence)", code)
        defer { natsMsg_Destroy(message) }
        return NATSMessage(message!, keys: headerKeys)
    }

    /// Opens key-value bucket `bucket`, creating it with `ttl` (seconds, 0 = keep forever) and `replicas` when it
    /// does not exist.
    public func keyValue(bucket: String, ttl: Double, replicas: Int, maxValueSize: Int32 = 1 << 20) throws(NATSError)
        -> NATSKeyValue
    {
        var kv: OpaquePointer?
        if js_KeyValue(&kv, jetStream, bucket) == NATS_OK, let kv { return NATSKeyValue(kv, bucket: bucket, owner: self) }
        var config = kvConfig()
        try natsCheck(kvConfig_Init(&config), "init bucket config")
        let status = bucket.withCString { name in
            config.Bucket = name
            config.History = 1
            config.TTL = Int64(ttl * 1e9)
            config.Replicas = Int32(replicas)
            config.StorageType = js_FileStorage
            config.MaxValueSize = maxValueSize
            return js_CreateKeyValue(&kv, jetStream, &config)
        }
        try natsCheck(status, "create bucket \(bucket)")
        return NATSKeyValue(kv!, bucket: bucket, owner: self)
    }

    // MARK: - Consuming

    /// Subscribes to `subject` of `stream` through an ordered consumer (ephemeral, no acknowledgements, messages
    /// strictly in stream order; libnats recreates it after a gap or a lost server) from `startSequence` (0 or 1 =
    /// the first message kept), calling `handler` on the subscription's own delivery thread, one message at a time.
    ///
    /// - Parameter headerKeys: the headers copied into each ``NATSMessage``.
    public func subscribeOrdered(
        stream: String, subject: String, startSequence: UInt64, headerKeys: [String],
        handler: @escaping @Sendable (NATSMessage) -> Void
    ) throws(NATSError) -> NATSSubscription {
        let box = NATSSubscription.HandlerBox(handler: handler, keys: headerKeys)
        let closure = Unmanaged.passRetained(box).toOpaque()
        do {
            let sub = try subscribe(stream: stream, subject: subject, startSequence: startSequence, closure: closure)
            return NATSSubscription(sub, box: closure)
        } catch {
            Unmanaged<NATSSubscription.HandlerBox>.fromOpaque(closure).release()
            throw error
        }
    }

    /// As ``subscribeOrdered(stream:subject:startSequence:headerKeys:handler:)`` but synchronous: the caller
    /// takes messages with ``NATSSubscription/next(timeout:headerKeys:)`` on one thread.
    public func subscribeOrderedSync(stream: String, subject: String, startSequence: UInt64) throws(NATSError)
        -> NATSSubscription
    {
        NATSSubscription(try subscribe(stream: stream, subject: subject, startSequence: startSequence, closure: nil), box: nil)
    }

    private func subscribe(stream: String, subject: String, startSequence: UInt64, closure: UnsafeMutableRawPointer?)
        throws(NATSError) -> OpaquePointer
    {
        var subOptions = jsSubOptions()
        try natsCheck(jsSubOptions_Init(&subOptions), "init subscribe options")
        subOptions.Ordered = true
        if startSequence > 1 {
            subOptions.Config.DeliverPolicy = js_DeliverByStartSequence
            subOptions.Config.OptStartSeq = startSequence
        } else {
            subOptions.Config.DeliverPolicy = js_DeliverAll
        }
        var sub: OpaquePointer?
        var code = jsErrCode(rawValue: 0)
        let status = stream.withCString { name in
            subOptions.Stream = name
            if let closure {
                return js_Subscribe(&sub, jetStream, subject, natsOrderedHandler, closure, nil, &subOptions, &code)
            }
            return js_SubscribeSync(&sub, jetStream, subject, nil, &subOptions, &code)
        }
        try natsCheck(status, "subscribe \(subject) on \(stream)", code)
        return sub!
    }
}

/// The C entry of every asynchronous subscription: copies the message, destroys it, calls the Swift handler.
private func natsOrderedHandler(
    _ connection: OpaquePointer?, _ subscription: OpaquePointer?, _ message: OpaquePointer?,
    _ closure: UnsafeMutableRawPointer?
) {
    guard let message, let closure else { return }
    let box = Unmanaged<NATSSubscription.HandlerBox>.fromOpaque(closure).takeUnretainedValue()
    let copy = NATSMessage(message, keys: box.keys)
    natsMsg_Destroy(message)
    box.handler(copy)
}
