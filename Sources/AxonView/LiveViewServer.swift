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
/// Every request goes through `ViewAccess` before routing: its `Host` must be one of the view's names (403
/// otherwise: a DNS-rebinding page), an `Origin` must be the page's own (403), and the request must carry the token
/// — a random one unless the configuration gives one or says ``Configuration/Access/noToken`` — as `?token=…`, or
/// the `HttpOnly`, `SameSite=Strict` cookie the first such request gets (401 otherwise). Every response carries
/// `ViewAccess.securityHeaders` (`Content-Security-Policy`, `X-Content-Type-Options: nosniff`,
/// `Referrer-Policy: no-referrer`, …). Only the three files of the page are served, from memory; any other path is
/// 404, whatever it contains.
///
///     let server = try LiveViewServer(hub: hub, configuration: .init(port: 8080))
///     try await server.run { url in print("open \(url)") }   // http://127.0.0.1:8080/?token=…
///
/// Threading: `run` from one task; it returns when that task is cancelled. The hub may be fed from any thread.
public struct LiveViewServer: Sendable {
    /// Where and how to listen.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Configuration: Sendable, Hashable {
        /// Whether requests need a token.
        public enum Access: Sendable, Hashable {
            /// Every request needs this token, as `?token=…` or the cookie a request with it got.
            case token(String)
            /// No token (loopback addresses only): any program or user of this machine may watch; `Host` and
            /// `Origin` are still checked, so other web sites may not.
            case noToken
        }

        /// IPv4/IPv6 literal or `localhost`.
        public var address: String
        /// TCP port; 0 picks a free one (the URL given to `run`'s callback has it).
        public var port: Int
        /// The token, or none.
        public var access: Access
        /// Host names (or IP literals) a request's `Host` may name besides the listen address, `localhost`,
        /// `127.0.0.1` and `[::1]` — the name a proxy or `/etc/hosts` gives this machine.
        public var allowedHosts: [String]
        /// A directory holding the page's `index.html`, `app.js` and `style.css` (an installed copy, e.g.
        /// `PREFIX/share/axon/web`), or `nil` for the copy built into this module's resources.
        public var pageDirectory: URL?

        /// Creates a configuration; the default listens on 127.0.0.1:8080 with a fresh random token and serves the
        /// page built into the module.
        public init(
            address: String = "127.0.0.1", port: Int = 8080, access: Access = .token(LiveViewServer.randomToken()),
            allowedHosts: [String] = [], pageDirectory: URL? = nil
        ) {
            self.address = address
            self.port = port
            self.access = access
            self.allowedHosts = allowedHosts
            self.pageDirectory = pageDirectory
        }

        /// The token, `nil` with ``Access/noToken``.
        public var token: String? {
            if case .token(let token) = access { token } else { nil }
        }

        /// Whether `address` reaches this machine only (127.0.0.0/8, ::1, localhost).
        public var isLoopback: Bool {
            address == "localhost" || address == "::1" || address.hasPrefix("127.")
        }

        /// Whether `address` is every interface (`0.0.0.0`, `::`).
        var isWildcard: Bool { address == "0.0.0.0" || address == "::" }
    }

    /// 24 bytes from the system's cryptographic generator as 48 hex digits (what Jupyter uses).
    ///
    /// Threading: any thread.
    public static func randomToken() -> String { ViewAccess.randomHex(bytes: 24) }

    /// The hub whose run is shown.
    public let hub: LiveViewHub
    /// The configuration.
    public let configuration: Configuration
    private let files: [String: (contentType: String, bytes: [UInt8])]
    let access: ViewAccess

    /// A name as a `Host` header spells it: lowercased, an IPv6 literal in brackets.
    static func hostForm(_ name: String) -> String {
        let lowered = name.lowercased()
        return lowered.contains(":") && !lowered.hasPrefix("[") ? "[\(lowered)]" : lowered
    }

    /// Checks the configuration and loads the page's files.
    ///
    /// - Throws: ``LiveViewError/tokenRequired(address:)`` for ``Configuration/Access/noToken`` on an address that
    ///   is not loopback, ``LiveViewError/emptyToken``, ``LiveViewError/invalidAllowedHost(_:)``,
    ///   ``LiveViewError/invalidAddress(_:)``, ``LiveViewError/invalidPort(_:)``, or
    ///   ``LiveViewError/missingResource(_:)``.
    public init(hub: LiveViewHub, configuration: Configuration) throws(LiveViewError) {
        guard (0...65535).contains(configuration.port) else { throw .invalidPort(configuration.port) }
        let address = configuration.address
        var v4 = in_addr()
        var v6 = in6_addr()
        guard address == "localhost" || inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1
        else { throw .invalidAddress(address) }
        switch configuration.access {
        case .noToken: if !configuration.isLoopback { throw .tokenRequired(address: address) }
        case .token(let token): if token.isEmpty { throw .emptyToken }
        }
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", Self.hostForm(address)]
        if configuration.isWildcard { hosts.insert(ProcessInfo.processInfo.hostName.lowercased()) }
        for name in configuration.allowedHosts {
            let form = Self.hostForm(name)
            guard let (host, port) = ViewAccess.splitAuthority(form), port == nil, host == form,
                !form.contains(where: { !($0.isLetter || $0.isNumber || "-._:[]".contains($0)) })
            else { throw .invalidAllowedHost(name) }
            hosts.insert(host)
        }
        access = ViewAccess(token: configuration.token, allowedHosts: hosts)
        self.hub = hub
        self.configuration = configuration
        var files: [String: (String, [UInt8])] = [:]
        for (name, type) in [
            ("index.html", "text/html; charset=utf-8"), ("app.js", "text/javascript; charset=utf-8"),
            ("style.css", "text/css; charset=utf-8"),
        ] {
            let url = configuration.pageDirectory.map { $0.appendingPathComponent(name) }
                ?? Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Web")
            guard let url, let data = try? Data(contentsOf: url)
            else { throw .missingResource(name) }
            files[name] = (type, [UInt8](data))
        }
        self.files = files
    }

    /// The URL viewers open (with the token when there is one) for a port.
    public func url(port: Int) -> String {
        let host = configuration.isWildcard ? ProcessInfo.processInfo.hostName : configuration.address
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
        router.add(middleware: AccessCheck(access: access))
        for (name, file) in files {
            let response = Response(
                status: .ok,
                headers: [.contentType: file.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
            router.get(name == "index.html" ? "/" : RouterPath(stringLiteral: "/\(name)")) { _, _ in response }
        }
        let hub = hub
        // AccessCheck has decided the upgrade request and put the security headers on the 101.
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
        let access = access
        let responder = router.buildResponder()
        let server = HTTPServerBuilder { handler in
            AccessGatedChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: handler, webSocketResponder: responder, configuration: .init()),
                access: access)
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

/// Decides every request Hummingbird routes with ``ViewAccess`` (403 for a foreign `Host` or `Origin`, 401 without
/// the token or its cookie), sets the cookie on a response to a request that brought the token, and puts
/// ``ViewAccess/securityHeaders`` on every response, errors (404) included.
///
/// Threading: a value; Hummingbird calls it from any task.
struct AccessCheck<Context: RequestContext>: RouterMiddleware {
    let access: ViewAccess

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let decision = access.decide(
            target: request.head.path ?? "", host: request.head.authority, origin: request.headers[.origin],
            cookies: request.headers[values: .cookie], upgrade: request.headers[.upgrade] != nil,
            fetchSite: request.headers[.init("Sec-Fetch-Site")!], fetchMode: request.headers[.init("Sec-Fetch-Mode")!])
        var response: Response
        switch decision {
        case .allow(let setCookie):
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
            if setCookie { response.headers[values: .setCookie].append(access.setCookie) }
        case .unauthorized, .forbidden:
            response = Response(
                status: decision == .unauthorized ? .unauthorized : .forbidden,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: ViewAccess.body(for: decision))))
        }
        for field in securityFields { response.headers[field.name] = field.value }
        return response
    }
}

/// ``ViewAccess/securityHeaders`` as HTTP fields.
private let securityFields: HTTPFields = {
    var fields = HTTPFields()
    for header in ViewAccess.securityHeaders { fields[.init(header.name)!] = header.value }
    return fields
}()
#endif
