import Testing

@testable import AxonView

/// The view's access decision as a function (`ViewAccess`), case by case: what the gate and the router answer with.
struct ViewAccessTests {
    static let access = ViewAccess(token: "t0ken", allowedHosts: ["localhost", "127.0.0.1", "[::1]", "view.example"])

    @Test(
        arguments: [
            ("127.0.0.1:8080", "127.0.0.1", 8080), ("LocalHost", "localhost", nil), ("[::1]:9", "[::1]", 9),
            ("view.example:65535", "view.example", 65535),
        ] as [(String, String, Int?)])
    func authorities(text: String, host: String, port: Int?) throws {
        let parsed = try #require(ViewAccess.splitAuthority(text))
        #expect(parsed.host == host && parsed.port == port)
    }

    @Test(arguments: ["", ":80", "a:", "a:x", "a:65536", "a:1:2", "[::1", "[::1]x", "a b", "a/b", "u@a", "a:+80"])
    func malformedAuthorities(text: String) {
        #expect(ViewAccess.splitAuthority(text) == nil)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", "127.0.0.1:8080", true), ("HTTP://LOCALHOST:8080", "localhost:8080", true),
        ("https://view.example", "view.example", true), ("http://view.example", "view.example:80", true),
        ("http://127.0.0.1:8081", "127.0.0.1:8080", false), ("http://localhost:8080", "127.0.0.1:8080", false),
        ("null", "127.0.0.1:8080", false), ("ws://127.0.0.1:8080", "127.0.0.1:8080", false),
        ("http://127.0.0.1", "127.0.0.1:8080", false), ("https://view.example", "view.example:80", false),
    ])
    func origins(origin: String, host: String, same: Bool) {
        #expect(ViewAccess.sameOrigin(origin, host: host) == same)
    }

    @Test func constantTimeComparison() {
        #expect(ViewAccess.constantTimeEqual("t0ken", "t0ken"))
        for given in ["", "t0ke", "t0kenn", "T0ken", "x0ken", "t0kex", "t0ken\0"] {
            #expect(!ViewAccess.constantTimeEqual(given, "t0ken"), "\(given)")
        }
    }

    @Test func randomTokensAreFresh() {
        let tokens = Set((0..<100).map { _ in ViewAccess.randomHex(bytes: 24) })
        #expect(tokens.count == 100)
        #expect(tokens.allSatisfy { $0.count == 48 && $0.allSatisfy(\.isHexDigit) })
    }

    @Test func decisions() {
        let access = Self.access
        let cookie = "\(access.cookieName)=\(access.cookieValue)"
        func decide(
            _ target: String, host: String? = "127.0.0.1:1", origin: String? = nil, cookies: [String] = [],
            upgrade: Bool = false
        ) -> ViewAccess.Decision {
            access.decide(target: target, host: host, origin: origin, cookies: cookies, upgrade: upgrade)
        }
        #expect(decide("/?token=t0ken") == .allow(setCookie: true))
        #expect(decide("/?a=1&token=t%30ken#x") == .allow(setCookie: true))
        #expect(decide("/", cookies: ["a=b; \(cookie)"]) == .allow(setCookie: false))
        #expect(decide("/") == .unauthorized)
        #expect(decide("/?token=t0ke") == .unauthorized)
        #expect(decide("/", cookies: ["\(access.cookieName)=t0ken"]) == .unauthorized)
        #expect(decide("/", cookies: ["x\(cookie)"]) == .unauthorized)
        if case .forbidden = decide("/?token=t0ken", host: "evil.example") {} else { Issue.record("foreign Host") }
        if case .forbidden = decide("/?token=t0ken", host: nil) {} else { Issue.record("no Host") }
        if case .forbidden = decide("/?token=t0ken", origin: "http://127.0.0.1:2") {} else { Issue.record("Origin") }
        // A WebSocket by cookie needs the page's Origin; by token (a program) it may go without.
        if case .forbidden = decide("/ws", cookies: [cookie], upgrade: true) {} else { Issue.record("no Origin") }
        #expect(
            decide("/ws", origin: "http://127.0.0.1:1", cookies: [cookie], upgrade: true) == .allow(setCookie: false))
        #expect(decide("/ws?token=t0ken", upgrade: true) == .allow(setCookie: true))
        // Fetch metadata: another page's fetch or image is refused, a person's navigation and the page's own are not.
        for site in ["cross-site", "same-site"] {
            let started = access.decide(
                target: "/", host: "127.0.0.1:1", origin: nil, cookies: [cookie], upgrade: false, fetchSite: site,
                fetchMode: "no-cors")
            if case .forbidden = started {} else { Issue.record("Sec-Fetch-Site: \(site)") }
            #expect(
                access.decide(
                    target: "/?token=t0ken", host: "127.0.0.1:1", origin: nil, cookies: [], upgrade: false,
                    fetchSite: site,
                    fetchMode: "navigate") == .allow(setCookie: true))
        }
        #expect(
            access.decide(
                target: "/app.js", host: "127.0.0.1:1", origin: nil, cookies: [cookie], upgrade: false,
                fetchSite: "same-origin", fetchMode: "no-cors") == .allow(setCookie: false))
        // No token: Host and Origin are still checked.
        let open = ViewAccess(token: nil, allowedHosts: ["127.0.0.1"])
        #expect(
            open.decide(target: "/", host: "127.0.0.1", origin: nil, cookies: [], upgrade: true)
                == .allow(setCookie: false))
        if case .forbidden = open.decide(target: "/", host: "evil.example", origin: nil, cookies: [], upgrade: false) {
        } else {
            Issue.record("no token, foreign Host")
        }
    }

    @Test func headsWithTwoHostsAreAmbiguous() {
        let head = ViewAccess.Head.parse(
            "GET /ws?token=x HTTP/1.1\r\nHost: 127.0.0.1\r\nhost: evil.example\r\n"
                + "Origin: http://127.0.0.1\r\nCookie: a=1\r\nCookie: b=2\r\nUpgrade: websocket\r\n"
                + "Sec-Fetch-Site: same-origin\r\nsec-fetch-mode: websocket")
        #expect(head.ambiguous && head.host == "")
        #expect(head.target == "/ws?token=x" && head.cookies == ["a=1", "b=2"] && head.upgrade)
        #expect(head.origin == "http://127.0.0.1")
        #expect(head.fetchSite == "same-origin" && head.fetchMode == "websocket")
    }
}
