import Foundation
import Testing

/// Who may watch a running `axon view` (issue 38's live-view hardening): raw HTTP/1.1 requests over loopback to the
/// built `axon view`, each header chosen by the test, and what comes back — status, headers, and whether any of the
/// page or the stream did. docs/security.md names these tests beside its claims.
@Suite struct LiveViewSecurityTests {
    /// `"type":"hello"` in a WebSocket's first frame: the stream's first message.
    static func hasHello(_ response: RawResponse) -> Bool { response.bodyText.contains("\"type\":\"hello\"") }

    /// A refusal carries no part of the page or the stream, and the connection is closed.
    static func expectNothingSent(_ response: RawResponse, _ what: String) {
        let text = response.bodyText
        #expect(!text.contains("<html"), "\(what): the page was sent: \(text.prefix(200))")
        #expect(!text.contains("\"type\""), "\(what): stream messages were sent: \(text.prefix(200))")
        #expect(!response.body.contains(0x81), "\(what): a WebSocket text frame was sent: \(text.prefix(200))")
    }

    @Test func noTokenOffLoopbackRefusesToStart() throws {
        let view = try ViewProcess(["test-sequence:10", "--listen", "0.0.0.0", "--no-token", "--port", "0"])
        #expect(view.waitForExit() != 0)
        let output = view.lines.joined(separator: "\n")
        #expect(output.contains("refusing to listen on 0.0.0.0 without a token"), "\(output)")
        #expect(!output.contains("http://"))
        let both = try ViewProcess(["test-sequence:10", "--token", "t", "--no-token", "--port", "0"])
        #expect(both.waitForExit() != 0)
        #expect(both.lines.joined().contains("--token or --no-token"), "\(both.lines)")
    }

    /// Without --token the URL carries a fresh random token (48 hex digits, another one each run), and nothing is
    /// served without it: the page, its files and the WebSocket get 401.
    @Test func defaultTokenIsRandomAndRequired() throws {
        let first = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "60"])
        defer { first.stop() }
        let second = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "60"])
        defer { second.stop() }
        let token = try #require(try first.token())
        #expect(token.count == 48 && token.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(token)")
        #expect(try second.token() != token)
        let port = try first.port()
        let host = "127.0.0.1:\(port)"
        for target in ["/", "/app.js", "/style.css", "/?token=", "/?token=\(token.dropLast())", "/?tok=\(token)"] {
            let response = try rawRequest(port: port, target: target, host: host)
            #expect(response.status == 401, "\(target)")
            #expect(response.cookie == nil, "\(target)")
            Self.expectNothingSent(response, target)
        }
        for target in ["/ws", "/ws?token=wrong", "/ws?token=\(try #require(try second.token()))"] {
            let response = try rawRequest(
                port: port, target: target, host: host, headers: ["Origin: http://\(host)"], upgrade: true)
            #expect(response.status == 401, "\(target)")
            #expect(response.closed, "\(target)")
            Self.expectNothingSent(response, target)
        }
        #expect(try rawRequest(port: port, target: "/?token=\(token)", host: host).status == 200)
    }

    /// `--token T` still chooses the token.
    @Test func tokenIsRequiredForThePageAndTheWebSocket() throws {
        let view = try ViewProcess(["test-sequence:10", "--token", "s3cret", "--port", "0", "--seconds", "30"])
        defer { view.stop() }
        let url = try view.url()
        #expect(url.hasSuffix("/?token=s3cret"))
        let port = try view.port()
        #expect(try httpStatus(port: port, path: "/", upgrade: false) == 401)
        #expect(try httpStatus(port: port, path: "/?token=wrong", upgrade: false) == 401)
        #expect(try httpStatus(port: port, path: "/app.js", upgrade: false) == 401)
        #expect(try httpStatus(port: port, path: "/ws", upgrade: true) == 401)
        #expect(try httpStatus(port: port, path: "/ws?token=wrong", upgrade: true) == 401)
        #expect(try httpStatus(port: port, path: "/?token=s3cret", upgrade: false) == 200)
        #expect(try httpStatus(port: port, path: "/ws?token=s3cret", upgrade: true) == 101)
    }

    /// The first request with the token gets a cookie (`HttpOnly`, `SameSite=Strict`, `Path=/`); with it the page,
    /// its files and the WebSocket (from the page's own origin) need no token; a wrong cookie is a 401.
    @Test func tokenSetsAStrictHttpOnlyCookieThatAuthenticates() throws {
        let view = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "60"])
        defer { view.stop() }
        let (port, token) = (try view.port(), try #require(try view.token()))
        let host = "127.0.0.1:\(port)"
        let first = try rawRequest(port: port, target: "/?token=\(token)", host: host)
        #expect(first.status == 200)
        #expect(first.bodyText.contains("<html"))
        let setCookie = try #require(first.headers("set-cookie").first, "\(first.headers)")
        let attributes = Set(
            setCookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(attributes == ["Path=/", "HttpOnly", "SameSite=Strict"], "\(setCookie)")
        let cookie = try #require(first.cookie)
        #expect(!cookie.contains(token), "the cookie is not the token")
        for target in ["/", "/app.js", "/style.css"] {
            let response = try rawRequest(port: port, target: target, host: host, headers: ["Cookie: \(cookie)"])
            #expect(response.status == 200, "\(target)")
            #expect(response.headers("set-cookie").isEmpty, "\(target)")
        }
        let socket = try rawRequest(
            port: port, target: "/ws", host: host, headers: ["Cookie: other=1; \(cookie)", "Origin: http://\(host)"],
            upgrade: true, until: Self.hasHello)
        #expect(socket.status == 101)
        #expect(Self.hasHello(socket))
        let wrong = cookie.prefix { $0 != "=" } + "=" + String(repeating: "0", count: 64)
        #expect(try rawRequest(port: port, target: "/", host: host, headers: ["Cookie: \(wrong)"]).status == 401)
        let wrongSocket = try rawRequest(
            port: port, target: "/ws", host: host, headers: ["Cookie: \(wrong)", "Origin: http://\(host)"],
            upgrade: true)
        #expect(wrongSocket.status == 401)
        Self.expectNothingSent(wrongSocket, "wrong cookie")
    }

    /// DNS rebinding: a request whose `Host` is not the view's gets 403 before routing — with the right token, for the
    /// page and for a WebSocket upgrade alike — and nothing of the page or the stream.
    @Test func foreignHostIsForbiddenBeforeRouting() throws {
        let view = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "60"])
        defer { view.stop() }
        let (port, token) = (try view.port(), try #require(try view.token()))
        let hosts: [String?] = [
            "attacker.example", "attacker.example:\(port)", "127.0.0.1.attacker.example:\(port)",
            "localhost.attacker.example", "localhost.", "127.0.0.2:\(port)", "[::2]:\(port)",
            "127.0.0.1:\(port)@attacker.example", "", nil,
        ]
        for host in hosts {
            let page = try rawRequest(port: port, target: "/?token=\(token)", host: host)
            #expect(page.status == 403, "Host \(host ?? "(none)")")
            #expect(page.cookie == nil)
            Self.expectNothingSent(page, "Host \(host ?? "(none)")")
            let socket = try rawRequest(
                port: port, target: "/ws?token=\(token)", host: host,
                headers: host.map { ["Origin: http://\($0)"] } ?? [], upgrade: true)
            #expect(socket.status == 403, "WebSocket, Host \(host ?? "(none)")")
            #expect(socket.closed)
            Self.expectNothingSent(socket, "WebSocket, Host \(host ?? "(none)")")
        }
        // Two Host headers, one of them right: ambiguous, refused.
        let twice = try rawRequest(
            port: port, target: "/?token=\(token)", host: "127.0.0.1:\(port)", headers: ["Host: attacker.example"])
        #expect(twice.status == 403 || twice.status == 400, "\(twice.status)")
        Self.expectNothingSent(twice, "two Hosts")
        // The names the view answers to, with the token; with any port (an `ssh -L` tunnel's) or none.
        let allowed = ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)", "127.0.0.1", "localhost:1"]
        for host in allowed {
            #expect(try rawRequest(port: port, target: "/?token=\(token)", host: host).status == 200, "\(host)")
        }
    }

    /// A WebSocket upgrade from another page (another port of this machine, another site, a sandboxed frame) is
    /// refused with 403 and no stream frame, with the token or the cookie; so is a cookie-authenticated upgrade
    /// without an `Origin`. The page's own origin gets the stream.
    @Test func foreignOriginWebSocketIsRefused() throws {
        let view = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "60"])
        defer { view.stop() }
        let (port, token) = (try view.port(), try #require(try view.token()))
        let host = "127.0.0.1:\(port)"
        let cookie = try #require(try rawRequest(port: port, target: "/?token=\(token)", host: host).cookie)
        let other = port == 65535 ? port - 1 : port + 1
        let foreign = [
            "http://127.0.0.1:\(other)", "http://127.0.0.1", "http://localhost:\(port)",
            "http://attacker.example:\(port)",
            "null", "file://", "http://127.0.0.1:\(port).attacker.example", "ws://127.0.0.1:\(port)",
        ]
        for origin in foreign {
            for credential in ["?token=\(token)", ""] {
                let response = try rawRequest(
                    port: port, target: "/ws" + credential, host: host,
                    headers: ["Origin: \(origin)", "Cookie: \(cookie)"],
                    upgrade: true)
                #expect(response.status == 403, "Origin \(origin) \(credential)")
                #expect(response.closed)
                Self.expectNothingSent(response, "Origin \(origin)")
            }
            // A plain request from another page (fetch) is refused too.
            let fetch = try rawRequest(
                port: port, target: "/", host: host, headers: ["Origin: \(origin)", "Cookie: \(cookie)"])
            #expect(fetch.status == 403, "fetch from \(origin)")
            Self.expectNothingSent(fetch, "fetch from \(origin)")
        }
        // A request another page started without an Origin (an image, a no-cors fetch: Sec-Fetch-Site tells) is refused;
        // a person following a link to the view is not.
        for site in ["same-site", "cross-site"] {
            let started = try rawRequest(
                port: port, target: "/", host: host,
                headers: ["Cookie: \(cookie)", "Sec-Fetch-Site: \(site)", "Sec-Fetch-Mode: no-cors"])
            #expect(started.status == 403, "Sec-Fetch-Site: \(site)")
            Self.expectNothingSent(started, "Sec-Fetch-Site: \(site)")
        }
        let followed = try rawRequest(
            port: port, target: "/?token=\(token)", host: host,
            headers: ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate"])
        #expect(followed.status == 200)
        let noOrigin = try rawRequest(
            port: port, target: "/ws", host: host, headers: ["Cookie: \(cookie)"], upgrade: true)
        #expect(noOrigin.status == 403)
        Self.expectNothingSent(noOrigin, "cookie without Origin")
        let own = try rawRequest(
            port: port, target: "/ws", host: host, headers: ["Origin: http://\(host)", "Cookie: \(cookie)"],
            upgrade: true,
            until: Self.hasHello)
        #expect(own.status == 101)
        #expect(Self.hasHello(own))
        // A program that holds the token (no cookie, no Origin: not a browser) may connect.
        let program = try rawRequest(
            port: port, target: "/ws?token=\(token)", host: host, upgrade: true, until: Self.hasHello)
        #expect(program.status == 101)
        #expect(Self.hasHello(program))
    }

    /// Only the page's three files are served: no URL reaches another file, whatever it says.
    @Test func pathsOutsideTheBundleAreNotServed() throws {
        let view = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "60"])
        defer { view.stop() }
        let (port, token) = (try view.port(), try #require(try view.token()))
        let host = "127.0.0.1:\(port)"
        let cookie = try #require(try rawRequest(port: port, target: "/?token=\(token)", host: host).cookie)
        let targets = [
            "/../../../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
            "/..%2f..%2f..%2fPackage.swift", "/etc/passwd", "//etc/passwd", "/Web/app.js", "/AxonView/Web/index.html",
            "/app.js/../../../Package.swift", "/app.js%00.html", "/..\\..\\..\\etc\\passwd",
            "/%5c..%5c..%5cetc%5cpasswd",
            "/./././app.js/..", "/./app.js", "/index.html", "/LiveViewServer.swift", "/.build/debug/axon",
            "/proc/self/environ",
            "http://127.0.0.1:\(port)/../../etc/passwd", "/%252e%252e/etc/passwd", "/app.js?file=../../etc/passwd",
        ]
        let web = ViewPaths.root.appendingPathComponent("Sources/AxonView/Web")
        let bundle = try ["index.html", "app.js", "style.css"].map {
            try String(contentsOf: web.appendingPathComponent($0), encoding: .utf8)
        }
        for target in targets {
            let response = try rawRequest(port: port, target: target, host: host, headers: ["Cookie: \(cookie)"])
            // Served: one of the page's own files, byte for byte (`/app.js?file=…` is app.js: a query is no path);
            // anything else: 404, or refused.
            if response.status == 200 {
                #expect(bundle.contains(response.bodyText), "\(target) served something else")
            } else {
                #expect([400, 403, 404].contains(response.status), "\(target): \(response.status)")
            }
            let text = response.bodyText
            #expect(
                !text.contains("root:") && !text.contains("swift-tools-version") && !text.contains("PATH="), "\(target)"
            )
        }
    }

    /// `Content-Security-Policy` (self only, no inline script), `X-Content-Type-Options: nosniff` and
    /// `Referrer-Policy: no-referrer` on every response: the files, 401, 403, 404 and the WebSocket's 101.
    @Test func securityHeadersOnEveryResponse() throws {
        let view = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "60"])
        defer { view.stop() }
        let (port, token) = (try view.port(), try #require(try view.token()))
        let host = "127.0.0.1:\(port)"
        let page = try rawRequest(port: port, target: "/?token=\(token)", host: host)
        let cookie = try #require(page.cookie)
        let responses: [(String, Int, RawResponse)] = [
            ("page", 200, page),
            ("app.js", 200, try rawRequest(port: port, target: "/app.js", host: host, headers: ["Cookie: \(cookie)"])),
            (
                "style.css", 200,
                try rawRequest(port: port, target: "/style.css", host: host, headers: ["Cookie: \(cookie)"])
            ),
            ("404", 404, try rawRequest(port: port, target: "/nothing", host: host, headers: ["Cookie: \(cookie)"])),
            ("401", 401, try rawRequest(port: port, target: "/", host: host)),
            ("401 upgrade", 401, try rawRequest(port: port, target: "/ws", host: host, upgrade: true)),
            ("403 Host", 403, try rawRequest(port: port, target: "/", host: "attacker.example")),
            (
                "403 Origin", 403,
                try rawRequest(
                    port: port, target: "/ws", host: host, headers: ["Cookie: \(cookie)", "Origin: http://a.example"],
                    upgrade: true)
            ),
            (
                "101", 101,
                try rawRequest(
                    port: port, target: "/ws", host: host, headers: ["Cookie: \(cookie)", "Origin: http://\(host)"],
                    upgrade: true, until: { $0.status != 0 })
            ),
        ]
        for (what, status, response) in responses {
            #expect(response.status == status, "\(what)")
            let policy = response.header("content-security-policy") ?? ""
            #expect(
                policy.contains("default-src 'none'") && policy.contains("script-src 'self'")
                    && policy.contains("connect-src 'self'") && policy.contains("frame-ancestors 'none'")
                    && !policy.contains("unsafe"), "\(what): \(policy)")
            #expect(response.header("x-content-type-options") == "nosniff", "\(what)")
            #expect(response.header("referrer-policy") == "no-referrer", "\(what)")
        }
        // The page has no inline script for the policy to forbid: its scripts are files.
        #expect(!page.bodyText.contains("<script>") && page.bodyText.contains("<script src=\"app.js\""))
        #expect(responses[1].2.header("content-type")?.hasPrefix("text/javascript") == true)
    }

    /// `--no-token` on loopback: one warning line, no token in the URL, the page without one — and still 403 for a
    /// foreign `Host` or `Origin`.
    @Test func noTokenOnLoopbackWarnsAndStillChecksHostAndOrigin() throws {
        let view = try ViewProcess(["test-sequence:10", "--no-token", "--port", "0", "--seconds", "60"])
        defer { view.stop() }
        let port = try view.port()
        #expect(try view.token() == nil)
        #expect(view.line(containing: "warning: --no-token", timeout: 10) != nil, "\(view.lines)")
        let host = "127.0.0.1:\(port)"
        let page = try rawRequest(port: port, target: "/", host: host)
        #expect(page.status == 200)
        #expect(page.headers("set-cookie").isEmpty)
        #expect(try rawRequest(port: port, target: "/", host: "attacker.example:\(port)").status == 403)
        let foreign = try rawRequest(
            port: port, target: "/ws", host: host, headers: ["Origin: http://127.0.0.1:\(port + 1)"], upgrade: true)
        #expect(foreign.status == 403)
        Self.expectNothingSent(foreign, "foreign Origin, no token")
        let own = try rawRequest(
            port: port, target: "/ws", host: host, headers: ["Origin: http://\(host)"], upgrade: true,
            until: Self.hasHello)
        #expect(own.status == 101 && Self.hasHello(own))
    }

    /// `--allow-host NAME` adds that name (any case, any port) and nothing else; a name with a scheme or port is
    /// refused at the start.
    @Test func allowHostAddsOneName() throws {
        let view = try ViewProcess([
            "test-sequence:10", "--allow-host", "View.Example", "--port", "0", "--seconds", "60",
        ])
        defer { view.stop() }
        let (port, token) = (try view.port(), try #require(try view.token()))
        let page = try rawRequest(port: port, target: "/?token=\(token)", host: "view.example:\(port)")
        #expect(page.status == 200)
        #expect(try rawRequest(port: port, target: "/?token=\(token)", host: "VIEW.EXAMPLE").status == 200)
        #expect(try rawRequest(port: port, target: "/?token=\(token)", host: "other.example:\(port)").status == 403)
        let cookie = try #require(page.cookie)
        let socket = try rawRequest(
            port: port, target: "/ws", host: "view.example:\(port)",
            headers: ["Cookie: \(cookie)", "Origin: http://view.example:\(port)"], upgrade: true, until: Self.hasHello)
        #expect(socket.status == 101 && Self.hasHello(socket))
        let bad = try ViewProcess(["test-sequence:10", "--allow-host", "http://view.example:80/", "--port", "0"])
        #expect(bad.waitForExit() != 0)
        #expect(bad.lines.joined().contains("--allow-host http://view.example:80/ is not a host name"), "\(bad.lines)")
    }

    @Test func defaultListensOnLoopbackOnly() throws {
        let view = try ViewProcess(["test-sequence:10", "--port", "0", "--seconds", "30"])
        defer { view.stop() }
        let port = try view.port()
        #expect(try view.url().hasPrefix("http://127.0.0.1:"))
        // /proc/net/tcp: "sl local_address rem_address st …", addresses as hex IP:port, 0A = LISTEN.
        func listeners(_ file: String) throws -> [String] {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            return text.split(separator: "\n").dropFirst().compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A" else { return nil }
                let local = fields[1].split(separator: ":")
                guard local.count == 2, Int(local[1], radix: 16) == port else { return nil }
                return String(local[0])
            }
        }
        #expect(try listeners("/proc/net/tcp") == ["0100007F"])
        #expect(try listeners("/proc/net/tcp6").isEmpty)
    }
}
