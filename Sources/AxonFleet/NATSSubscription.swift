import CNATS

/// A JetStream subscription.
///
/// Threading: `next` on one thread at a time (synchronous subscriptions); `unsubscribe` from any thread. A handler
/// may still be running when `unsubscribe` returns: its owner fences it (the worker's partition lock).
/// `@unchecked Sendable`: the pointers are set once and libnats subscriptions are thread-safe.
public final class NATSSubscription: @unchecked Sendable {
    final class HandlerBox: @unchecked Sendable {
        let handler: @Sendable (NATSMessage) -> Void
        let keys: [String]
        init(handler: @escaping @Sendable (NATSMessage) -> Void, keys: [String]) {
            self.handler = handler
            self.keys = keys
        }
    }

    private let subscription: OpaquePointer
    private let box: UnsafeMutableRawPointer?

    init(_ subscription: OpaquePointer, box: UnsafeMutableRawPointer?) {
        self.subscription = subscription
        self.box = box
    }

    deinit {
        natsSubscription_Destroy(subscription)
        if let box { Unmanaged<HandlerBox>.fromOpaque(box).release() }
    }

    /// The next message, or `nil` when none came within `timeout` seconds.
    ///
    /// - Throws: ``NATSError`` for anything but a timeout (the connection closed, the consumer was lost).
    public func next(timeout: Double, headerKeys: [String]) throws(NATSError) -> NATSMessage? {
        var message: OpaquePointer?
        let status = natsSubscription_NextMsg(&message, subscription, Int64(timeout * 1000))
        if status == NATS_TIMEOUT { return nil }
        try natsCheck(status, "next message")
        defer { natsMsg_Destroy(message) }
        return NATSMessage(message!, keys: headerKeys)
    }

    /// Stops delivery; for an ordered consumer the server deletes it. Buffered messages are dropped (not drained):
    /// a worker giving up a partition wants the next owner, not itself, to process them.
    public func unsubscribe() {
        // An already closed subscription (connection closed) has nothing left to stop.
        _ = natsSubscription_Unsubscribe(subscription)
    }
}
