// AxonView — 403/401 before routing and before the WebSocket upgrade machinery, on a connection's first request.

// Built with the LiveView trait (on by default; see Package.swift).
#if LiveView
import Foundation
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Reads a connection's first request head (request line and headers) and answers it with ``ViewAccess``: a
/// `Host` that is not the view's or a foreign `Origin` gets `403 Forbidden`, a missing or wrong token (and no
/// cookie) `401 Unauthorized`, then the connection closes; otherwise the bytes go on and the handler leaves the
/// pipeline. A WebSocket upgrade can only be a connection's first request (NIO's upgrade handler leaves after it),
/// and Hummingbird answers every declined upgrade with 400 whatever the reason, so the upgrade is decided here,
/// ahead of it; the router's ``AccessCheck`` decides every plain request on the connection again, with the same
/// ``ViewAccess``.
///
/// Threading: a NIO channel handler, used on its channel's event loop only.
final class AccessGateHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The longest request head waited for before the request is refused (431).
    static let maximumHead = 16384

    private let access: ViewAccess
    private var pending: ByteBuffer?
    /// Set once a refusal is on its way: what else arrives before the close is dropped, never decided again.
    private var refused = false

    init(access: ViewAccess) { self.access = access }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        var buffer = unwrapInboundIn(data)
        if var earlier = pending {
            earlier.writeBuffer(&buffer)
            buffer = earlier
        }
        let bytes = buffer.readableBytesView
        guard let headEnd = Self.endOfHead(bytes) else {
            if buffer.readableBytes > Self.maximumHead {
                refuse(
                    context: context, status: "431 Request Header Fields Too Large",
                    body: "431: request head too long\n")
            } else {
                pending = buffer
            }
            return
        }
        pending = nil
        let head = ViewAccess.Head.parse(String(decoding: bytes[bytes.startIndex..<headEnd], as: UTF8.self))
        let decision = access.decide(
            target: head.target, host: head.host, origin: head.origin, cookies: head.cookies, upgrade: head.upgrade,
            fetchSite: head.fetchSite, fetchMode: head.fetchMode)
        switch decision {
        case .allow:
            context.fireChannelRead(wrapInboundOut(buffer))
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case .unauthorized:
            refuse(context: context, status: "401 Unauthorized", body: ViewAccess.body(for: decision))
        case .forbidden:
            refuse(context: context, status: "403 Forbidden", body: ViewAccess.body(for: decision))
        }
    }

    /// The index just past the head's last header line (before the blank line), or nil while it is incomplete.
    private static func endOfHead(_ bytes: ByteBufferView) -> ByteBufferView.Index? {
        var index = bytes.startIndex
        var previousNewline: ByteBufferView.Index?
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                if let previousNewline { return previousNewline }
                previousNewline = index
            } else if byte != UInt8(ascii: "\r") {
                previousNewline = nil
            }
            index = bytes.index(after: index)
        }
        return nil
    }

    private func refuse(context: ChannelHandlerContext, status: String, body: String) {
        var response = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\n"
        for header in ViewAccess.securityHeaders { response += "\(header.name): \(header.value)\r\n" }
        response += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let buffer = context.channel.allocator.buffer(string: response)
        let channel = context.channel
        refused = true
        pending = nil
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Hummingbird's HTTP/1 + WebSocket channel with ``AccessGateHandler`` in front of it.
///
/// Threading: `Sendable`; `setup` runs on the child channel's event loop, as Hummingbird calls it.
struct AccessGatedChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let access: ViewAccess

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(AccessGateHandler(access: access))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
#endif
