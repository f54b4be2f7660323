// AxonView — who may use a running view: the Host allowlist, the Origin, the token and its cookie.

import Foundation

/// The decision every request to the view goes through, before routing: the `Host` header must name this server
/// (a DNS-rebinding page reaches loopback under its own name), an `Origin` header must be the page's own origin
/// (another site's script, or a page on another port of this machine), and — unless the view runs without a
/// token — the request must carry the token as `?token=…` or the cookie set after the first such request.
///
/// The same value decides in ``AccessGateHandler`` (a connection's first request, WebSocket upgrades included, on
/// the raw bytes) and in ``AccessCheck`` (every plain request Hummingbird routes), so both answer alike.
///
/// Threading: an immutable value, `Sendable`; `decide` is a pure function, callable from any thread.
struct ViewAccess: Sendable {
    /// What a request may do.
    enum Decision: Equatable, Sendable {
        /// Go on; `setCookie` when the request authenticated with the token in its query (the response then
        /// carries ``ViewAccess/setCookie``).
        case allow(setCookie: Bool)
        /// 403: the `Host` is not this server's, or the `Origin` is another page's.
        case forbidden(String)
        /// 401: no token and no cookie (or wrong ones).
        case unauthorized
    }

    /// The token, or `nil` when the view runs without one (`--no-token`, loopback only).
    let token: String?
    /// Lowercased host names (IPv6 literals in brackets) a `Host` header may name, with any port.
    let allowedHosts: Set<String>
    /// The cookie's name: `axon-view-` and 8 random hex digits, so two views on one machine keep their own.
    let cookieName: String
    /// The cookie's value: 64 random hex digits, unrelated to the token.
    let cookieValue: String

    init(token: String?, allowedHosts: Set<String>) {
        self.token = token
        self.allowedHosts = allowedHosts
        cookieName = "axon-view-" + Self.randomHex(bytes: 4)
        cookieValue = Self.randomHex(bytes: 32)
    }

    /// The `Set-Cookie` value sent after a request authenticated by the token: a session cookie for the whole
    /// server, out of reach of the page's script and not sent by requests that other sites start. A page on another
    /// port of this machine is the same site, and its requests do carry it: the `Origin` and `Sec-Fetch-Site`
    /// checks of ``decide(target:host:origin:cookies:upgrade:fetchSite:fetchMode:)`` refuse those.
    var setCookie: String { "\(cookieName)=\(cookieValue); Path=/; HttpOnly; SameSite=Strict" }

    /// Headers on every response of the view (refusals included): scripts, styles, images and connections from the
    /// server itself only, no framing, no content sniffing, no referrer, not readable by other origins, not cached.
    static let securityHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ]

    /// Decides one request.
    ///
    /// - Parameters:
    ///   - target: the request line's target (`/ws?token=…`).
    ///   - host: the `Host` header, `nil` when absent.
    ///   - origin: the `Origin` header, `nil` when absent.
    ///   - cookies: every `Cookie` header's value.
    ///   - upgrade: whether the request asks for a WebSocket upgrade.
    ///   - fetchSite, fetchMode: the browser's `Sec-Fetch-Site` and `Sec-Fetch-Mode` headers, when sent: a request
    ///     another page started (`cross-site` or `same-site` — another port of this machine is the same site) is
    ///     refused unless it is a person's navigation.
    ///
    /// An `Origin`, when present, must be `http(s)://` and the request's own `Host` (the page's origin). A WebSocket
    /// upgrade that authenticates by cookie must carry one: browsers always send it, and the cookie is what a
    /// browser would attach to another page's socket. Complexity: O(length of the headers).
    func decide(
        target: String, host: String?, origin: String?, cookies: [String], upgrade: Bool, fetchSite: String? = nil,
        fetchMode: String? = nil
    ) -> Decision {
        guard let host, let (hostName, _) = Self.splitAuthority(host), allowedHosts.contains(hostName) else {
            return .forbidden(
                "the Host header \(host.map { "'\($0)'" } ?? "(none)") is not this view's address; "
                    + "open the URL axon view printed, or start it with --allow-host NAME")
        }
        if let origin, !Self.sameOrigin(origin, host: host) {
            return .forbidden("the Origin '\(origin)' is not this view's page")
        }
        // Fetch metadata: another site's (or another port's) script, image or frame asking, not a person navigating.
        if let site = fetchSite?.lowercased(), site == "cross-site" || site == "same-site",
            fetchMode?.lowercased() != "navigate"
        {
            return .forbidden("a request another page started (Sec-Fetch-Site: \(site))")
        }
        guard let token else { return .allow(setCookie: false) }
        if let given = Self.queryValue("token", in: target), Self.constantTimeEqual(given, token) {
            return .allow(setCookie: true)
        }
        let cookie = cookies.lazy.compactMap { Self.cookieValue(self.cookieName, in: $0) }.first
        if let cookie, Self.constantTimeEqual(cookie, cookieValue) {
            if upgrade, origin == nil {
                return .forbidden("a WebSocket authenticated by cookie needs an Origin header")
            }
            return .allow(setCookie: false)
        }
        return .unauthorized
    }

    /// The text of a 401 or 403 body.
    static func body(for decision: Decision) -> String {
        switch decision {
        case .allow: ""
        case .unauthorized: "401: this view needs the token: open the URL axon view printed (…/?token=…)\n"
        case .forbidden(let reason): "403: \(reason)\n"
        }
    }

    // MARK: - Parsing

    /// What the decision needs from a request head: its target, `Host`, `Origin`, `Cookie`s and `Upgrade`.
    struct Head: Equatable {
        var target = ""
        var host: String?
        var origin: String?
        var cookies: [String] = []
        var upgrade = false
        var fetchSite: String?
        var fetchMode: String?
        /// A second `Host` or `Origin`: the request is ambiguous, and gets neither.
        var ambiguous = false

        /// Parses a head (lines up to the blank one). Two `Host` or two `Origin` headers make the head ambiguous;
        /// it then has an empty host, which the decision refuses.
        static func parse(_ text: String) -> Head {
            var head = Head()
            // "\r\n" is one Character: split on any line break.
            var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)[...]
            let requestLine = lines.popFirst() ?? ""
            let parts = requestLine.split(separator: " ")
            head.target = parts.count >= 2 ? String(parts[1]) : ""
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                switch name {
                case "host":
                    if head.host != nil { head.ambiguous = true }
                    head.host = value
                case "origin":
                    if head.origin != nil { head.ambiguous = true }
                    head.origin = value
                case "cookie": head.cookies.append(value)
                case "upgrade": head.upgrade = true
                case "sec-fetch-site": head.fetchSite = value
                case "sec-fetch-mode": head.fetchMode = value
                default: break
                }
            }
            if head.ambiguous { head.host = "" }
            return head
        }
    }

    /// `host[:port]` or `[v6][:port]` → (lowercased host, IPv6 in brackets; port or nil); nil when malformed.
    static func splitAuthority(_ authority: String) -> (host: String, port: Int?)? {
        let text = authority.lowercased()
        guard !text.isEmpty, !text.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "@" }) else { return nil }
        var host = Substring(text)
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[...close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { return nil }
        guard let portText else { return (String(host), nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText), port <= 65535
        else { return nil }
        return (String(host), port)
    }

    /// Whether `origin` (`scheme://authority`) is the origin of a page served under `host`: same host, same port
    /// (a missing port is the scheme's default), scheme http or https.
    static func sameOrigin(_ origin: String, host: String) -> Bool {
        let lowered = origin.lowercased()
        let scheme: String
        let defaultPort: Int
        if lowered.hasPrefix("http://") {
            (scheme, defaultPort) = ("http://", 80)
        } else if lowered.hasPrefix("https://") {
            (scheme, defaultPort) = ("https://", 443)
        } else {
            return false
        }
        guard let page = splitAuthority(String(lowered.dropFirst(scheme.count))),
            let served = splitAuthority(host)
        else { return false }
        // A Host without a port (a TLS proxy's, say) means the Origin scheme's default port.
        return page.host == served.host && (page.port ?? defaultPort) == (served.port ?? defaultPort)
    }

    /// The percent-decoded value of the first `name=` parameter of a request target's query.
    static func queryValue(_ name: String, in target: String) -> String? {
        guard let question = target.firstIndex(of: "?") else { return nil }
        let query = target[target.index(after: question)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return String(parts[1]).removingPercentEncoding
        }
        return nil
    }

    /// The value of cookie `name` in a `Cookie` header (`a=1; b=2`).
    static func cookieValue(_ name: String, in header: String) -> String? {
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    // MARK: - Secrets

    /// Whether `given` equals `secret`, in a time that depends on the secret's length only (not on where the first
    /// difference is), so a remote client cannot learn the secret a byte at a time.
    static func constantTimeEqual(_ given: String, _ secret: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(secret.utf8)
        var difference: UInt8 = a.count == b.count ? 0 : 1
        for index in b.indices {
            difference |= (index < a.count ? a[index] : 0) ^ b[index]
        }
        return difference == 0
    }

    /// `bytes` bytes from the system's cryptographic generator (`getrandom`), as lowercase hex.
    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
