// AxonView — 401 before the WebSocket upgrade machinery for a connection without the token.

// Built with the LiveView trait (on by default; see Package.swift).
#if LiveView
import Foundation
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Reads a connection's first request line and answers `401 Unauthorized` (then closes) when its target lacks the
/// token; otherwise hands the bytes on and leaves the pipeline. Hummingbird answers a declined WebSocket upgrade with
/// 400 whatever the reason, so the token is checked here, ahead of it; the router's ``TokenCheck`` still checks
/// every plain HTTP request on the connection.
///
/// Threading: a NIO channel handler, used on its channel's event loop only.
final class TokenGateHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The longest request line waited for before the request is refused.
    static let maximumRequestLine = 8192

    private let token: String
    private var pending: ByteBuffer?

    init(token: String) { self.token = token }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if var earlier = pending {
            earlier.writeBuffer(&buffer)
            buffer = earlier
        }
        let bytes = buffer.readableBytesView
        guard let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maximumRequestLine { refuse(context: context) } else { pending = buffer }
            return
        }
        pending = nil
        let line = String(decoding: bytes[bytes.startIndex..<lineEnd], as: UTF8.self)
        let parts = line.split(separator: " ")
        let target = parts.count >= 2 ? String(parts[1]) : ""
        let given = URLComponents(string: target)?.queryItems?.first { $0.name == "token" }?.value
        guard given == token else { return refuse(context: context) }
        context.fireChannelRead(wrapInboundOut(buffer))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(context: ChannelHandlerContext) {
        let body = "401: this view needs ?token=…\n"
        let response = "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let buffer = context.channel.allocator.buffer(string: response)
        let channel = context.channel
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
        pending = nil
    }
}

/// Hummingbird's HTTP/1 + WebSocket channel with ``TokenGateHandler`` in front of it.
///
/// Threading: `Sendable`; `setup` runs on the child channel's event loop, as Hummingbird calls it.
struct TokenGatedChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let token: String

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(TokenGateHandler(token: token))
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
