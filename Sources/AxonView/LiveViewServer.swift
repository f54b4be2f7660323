// AxonView — the HTTP and WebSocket server in front of a hub.

// Built with the LiveView trait (on by default; see Package.swift).
#if LiveView
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging

/// Serves the view: the page (`/`, `/app.js`, `/style.css`, from the package's resources) and one WebSocket per
/// viewer (`/ws`), which gets the hub's `hello` and then every message queued for it.
///
/// Listening on anything but loopback needs a token; with a token every request, the WebSocket upgrade included,
/// must carry it as `?token=…`, or gets 401 and nothing else.
///
///     let server = try LiveViewServer(hub: hub, configuration: .init(port: 8080))
///     try await server.run { url in print("open \(url)") }
///
/// Threading: `run` from one task; it returns when that task is cancelled. The hub may be fed from any thread.
public struct LiveViewServer: Sendable {
    /// Where and how to listen.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Configuration: Sendable, Hashable {
        /// IPv4/IPv6 literal or `localhost`.
        public var address: String
        /// TCP port; 0 picks a free one (the URL given to `run`'s callback has it).
        public var port: Int
        /// The access token; required unless `address` is loopback.
        public var token: String?

        /// Creates a configuration; the default listens on 127.0.0.1:8080 with no token.
        public init(address: String = "127.0.0.1", port: Int = 8080, token: String? = nil) {
            self.address = address
            self.port = port
            self.token = token
        }

        /// Whether `address` reaches this machine only (127.0.0.0/8, ::1, localhost).
        public var isLoopback: Bool {
            address == "localhost" || address == "::1" || address.hasPrefix("127.")
        }
    }

    /// The hub whose run is shown.
    public let hub: LiveViewHub
    /// The configuration.
    public let configuration: Configuration
    private let files: [String: (contentType: String, bytes: [UInt8])]

    /// Checks the configuration and loads the page's files.
    ///
    /// - Throws: ``LiveViewError/tokenRequired(address:)`` for a non-loopback address without a token,
    ///   ``LiveViewError/invalidAddress(_:)``, ``LiveViewError/invalidPort(_:)``, or
    ///   ``LiveViewError/missingResource(_:)``.
    public init(hub: LiveViewHub, configuration: Configuration) throws(LiveViewError) {
        guard (0...65535).contains(configuration.port) else { throw .invalidPort(configuration.port) }
        let address = configuration.address
        var v4 = in_addr()
        var v6 = in6_addr()
        guard address == "localhost" || inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1
        else { throw .invalidAddress(address) }
        if !configuration.isLoopback, (configuration.token ?? "").isEmpty { throw .tokenRequired(address: address) }
        self.hub = hub
        self.configuration = configuration
        var files: [String: (String, [UInt8])] = [:]
        for (name, type) in [
            ("index.html", "text/html; charset=utf-8"), ("app.js", "text/javascript; charset=utf-8"),
            ("style.css", "text/css; charset=utf-8"),
        ] {
            guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Web"),
                let data = try? Data(contentsOf: url)
            else { throw .missingResource(name) }
            files[name] = (type, [UInt8](data))
        }
        self.files = files
    }

    /// The URL viewers open (with the token when there is one) for a port.
    public func url(port: Int) -> String {
        let host = configuration.address == "0.0.0.0" || configuration.address == "::"
            ? (ProcessInfo.processInfo.hostName) : configuration.address
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)/" + (configuration.token.map { "?token=\(Self.percentEncoded($0))" } ?? "")
    }

    private static func percentEncoded(_ token: String) -> String {
        token.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&+=#")))
            ?? token
    }

    /// Serves until the calling task is cancelled; `listening` gets the URL once the socket is bound.
    public func run(listening: @escaping @Sendable (String) -> Void) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: TokenCheck(token: configuration.token))
        for (name, file) in files {
            let response = Response(
                status: .ok,
                headers: [.contentType: file.contentType, .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
            router.get(name == "index.html" ? "/" : RouterPath(stringLiteral: "/\(name)")) { _, _ in response }
        }
        let hub = hub
        router.ws("/ws") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            let viewer = hub.connect()
            defer { hub.disconnect(viewer) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Reading the inbound side notices a closed connection at once; the page sends nothing.
                group.addTask {
                    for try await _ in inbound {}
                }
                group.addTask {
                    var reportedSkips = 0
                    while let message = await viewer.next() {
                        let skipped = viewer.skippedCount
                        if skipped != reportedSkips {
                            reportedSkips = skipped
                            try await outbound.write(.text(
                                "{\"type\":\"skipped\",\"messages\":\(skipped),\"raw\":\(viewer.skippedRawCount)}"))
                        }
                        try await outbound.write(.text(message.text))
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        var logger = Logger(label: "axon-view")
        // Cancelling the server (the end of a run) makes NIO log its cancelled channels as errors: nothing to report.
        logger.logLevel = .critical
        let configuration = configuration
        let server: HTTPServerBuilder
        if let token = configuration.token {
            let responder = router.buildResponder()
            server = HTTPServerBuilder { handler in
                TokenGatedChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: handler, webSocketResponder: responder, configuration: .init()),
                    token: token)
            }
        } else {
            server = .http1WebSocketUpgrade(webSocketRouter: router)
        }
        let application = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.address, port: configuration.port)),
            onServerRunning: { channel in
                listening(url(port: channel.localAddress?.port ?? configuration.port))
            },
            logger: logger)
        try await application.runService(gracefulShutdownSignals: [])
    }
}

/// 401 for any request without the right `token` query parameter (when a token is set).
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
    let token: String?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let token, request.uri.queryParameters.get("token") != token {
            return Response(
                status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "401: this view needs ?token=…\n")))
        }
        return try await next(request, context)
    }
}
#endif
