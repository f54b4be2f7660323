import Foundation
import StreamTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Paths the view's tests need, found from this file's location.
enum ViewPaths {
    static let root: URL = {
        var root = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        return root
    }()

    /// The OpenBCI GUI v6 sample file (eyes closed ≈28–76 s).
    static let openBCI = root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt").path

    /// Where the browser tests leave a PNG of every tab.
    static let screenshots = root.appendingPathComponent(".build/view-screenshots").path

    static let browserScript = root.appendingPathComponent("scripts/view-browser.py").path

    /// Debian's chromium, which scripts/install-deps.sh --test installs.
    static var chromiumInstalled: Bool {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A running `axon view`: its output lines as they come, its URL, and a clean stop.
final class ViewProcess {
    private final class Lines: Sendable {
        let lines = Mutex<[String]>([])
    }

    private let process: Process
    private let output = Lines()
    private let newLine = DispatchSemaphore(value: 0)
    private let readerDone = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let reader: Thread

    /// Starts `axon view ARGUMENTS` (the built executable, or `executable`).
    init(_ arguments: [String], executable: String? = nil) throws {
        let axon = try #require(executable ?? AxonExecutable.path, "build the axon executable first (swift build)")
        process = Process()
        process.executableURL = URL(fileURLWithPath: axon)
        process.arguments = ["view"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let handle = pipe.fileHandleForReading
        let output = output
        let newLine = newLine
        let readerDone = readerDone
        reader = Thread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let end = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...end)
                    output.lines.withLock { $0.append(line) }
                    newLine.signal()
                }
            }
            newLine.signal()
            readerDone.signal()
        }
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        reader.start()
    }

    var lines: [String] { output.lines.withLock { $0 } }

    /// The first line containing `text`, waiting up to `timeout` seconds for it.
    func line(containing text: String, timeout: Double) -> String? {
        let deadline = DispatchTime.now() + timeout
        while true {
            if let line = lines.first(where: { $0.contains(text) }) { return line }
            if !process.isRunning, newLine.wait(timeout: .now()) == .timedOut { return lines.first { $0.contains(text) } }
            if newLine.wait(timeout: deadline) == .timedOut { return lines.first { $0.contains(text) } }
        }
    }

    /// The URL the view printed.
    func url(timeout: Double = 30) throws -> String {
        let found = self.line(containing: "open http://", timeout: timeout)
        let text = try #require(found, "no URL in: \(lines)")
        let start = try #require(text.range(of: "http://"))
        return String(text[start.lowerBound...].prefix { !$0.isWhitespace })
    }

    /// The port of the URL.
    func port() throws -> Int {
        let components = try #require(URLComponents(string: try url()))
        return try #require(components.port)
    }

    /// The token in the URL, nil when it has none.
    func token() throws -> String? {
        try #require(URLComponents(string: try url())).queryItems?.first { $0.name == "token" }?.value
    }

    /// SIGTERM, then the exit status. A view that has not exited 20 s after it is recorded as a failure and killed,
    /// so a stop that does not work fails its test instead of hanging the run.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
        } else {
            process.waitUntilExit()
            return process.terminationStatus
        }
        if exited.wait(timeout: .now() + 20) == .timedOut, process.isRunning {
            Issue.record("axon view did not exit within 20 s of SIGTERM; killed. Output: \(lines.suffix(5))")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits for the exit and for every line the process wrote.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        readerDone.wait()
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }
}

/// One headless Chromium run of scripts/view-browser.py: steps in, results and console errors out.
struct BrowserRun {
    let ok: Bool
    let errors: [String]
    let failures: [String]
    let results: [String: Any]

    /// `resolve`: names Chromium resolves to 127.0.0.1 (a DNS-rebinding domain's trick, without DNS).
    init(url: String, steps: [[String: Any]], resolve: [String] = []) throws {
        try FileManager.default.createDirectory(atPath: ViewPaths.screenshots, withIntermediateDirectories: true)
        let stepsFile = FileManager.default.temporaryDirectory.appendingPathComponent("axon-view-steps-\(UUID()).json")
        try JSONSerialization.data(withJSONObject: steps).write(to: stepsFile)
        defer { try? FileManager.default.removeItem(at: stepsFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", ViewPaths.browserScript, "--url", url, "--steps", stepsFile.path, "--out", ViewPaths.screenshots,
        ] + resolve.flatMap { ["--resolve", $0] }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let object = try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any],
            "view-browser.py printed: \(String(decoding: data, as: UTF8.self))")
        ok = object["ok"] as? Bool ?? false
        errors = object["errors"] as? [String] ?? []
        failures = object["failures"] as? [String] ?? []
        results = object["results"] as? [String: Any] ?? [:]
    }

    func number(_ name: String) -> Double? {
        if let value = results[name] as? Double { return value }
        if let text = results[name] as? String { return Double(text) }
        return nil
    }
}

/// Steps of view-browser.py, spelled once.
enum Step {
    /// The page's script has run and its WebSocket is open (before this, tab buttons do nothing).
    static var connected: [String: Any] {
        ["wait": "document.getElementById('connection').dataset.state === 'open'", "timeout": 20]
    }
    static func wait(_ expression: String, timeout: Double = 20) -> [String: Any] {
        ["wait": expression, "timeout": timeout]
    }
    static func eval(_ expression: String, as name: String) -> [String: Any] { ["eval": expression, "name": name] }
    static func click(_ selector: String) -> [String: Any] { ["click": selector] }
    static func screenshot(_ file: String) -> [String: Any] { ["screenshot": file] }
}

/// The status of a raw HTTP/1.1 request to 127.0.0.1 with its own `Host` (a WebSocket upgrade when `upgrade`).
func httpStatus(port: Int, path: String, upgrade: Bool) throws -> Int {
    try rawRequest(port: port, target: path, host: "127.0.0.1:\(port)", upgrade: upgrade) { $0.status != 0 }.status
}

/// One response read off a raw socket: the status, the headers (names lowercased) and the bytes after the head.
struct RawResponse {
    var status = 0
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// Whether the server closed the connection before the read stopped.
    var closed = false

    func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
    func headers(_ name: String) -> [String] { headers.filter { $0.name == name.lowercased() }.map(\.value) }
    var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The view's cookie (`axon-view-…=value`) from a `Set-Cookie`, without its attributes.
    var cookie: String? {
        headers("set-cookie").first { $0.hasPrefix("axon-view-") }.map { String($0.prefix { $0 != ";" }) }
    }
}

/// Sends `GET target` over a fresh TCP connection to 127.0.0.1:`port` with exactly the headers given (`Host` is the
/// first argument, `nil` sends none), and reads until the server closes, `until` holds, or 10 s pass. A WebSocket
/// upgrade when `upgrade`; otherwise `Connection: close`.
func rawRequest(
    port: Int, target: String, host: String?, headers extra: [String] = [], upgrade: Bool = false,
    until: (RawResponse) -> Bool = { _ in false }
) throws -> RawResponse {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socket >= 0)
    defer { close(socket) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    try #require(connected == 0, "connect to 127.0.0.1:\(port) failed")
    var request = "GET \(target) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "")
    for header in extra { request += header + "\r\n" }
    if upgrade {
        request += "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
    } else {
        request += "Connection: close\r\n"
    }
    request += "\r\n"
    let bytes = Array(request.utf8)
    try #require(write(socket, bytes, bytes.count) == bytes.count)
    var received: [UInt8] = []
    var response = RawResponse()
    var buffer = [UInt8](repeating: 0, count: 65536)
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
        let count = read(socket, &buffer, buffer.count)
        if count == 0 { response.closed = true }
        if count <= 0 { break }
        received += buffer[0..<count]
        guard let end = received.indices.dropLast(3).first(where: { Array(received[$0..<$0 + 4]) == separator }) else {
            continue
        }
        let head = String(decoding: received[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head[0].split(separator: " ")
        response.status = parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
        response.headers = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        response.body = Array(received[(end + 4)...])
        if until(response) { break }
    }
    try #require(
        response.status != 0, "no HTTP response to GET \(target): \(String(decoding: received, as: UTF8.self))")
    return response
}
