import AxonDevices
import AxonOBD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// elm327-emulator (PyPI, installed into `.venv-peers` by `scripts/python-peers.sh`) on a free loopback port, run
/// through `scripts/obd-emulator.py`, which kills it when told to, when the test ends, or when this process dies
/// (the script's standard input, held by us, closes).
final class EmulatorPeer {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python = root.appendingPathComponent(".venv-peers/bin/python").path
    static let script = root.appendingPathComponent("scripts/obd-emulator.py").path

    /// Whether the emulator is installed (`make test` installs it; a bare `swift test` may not have it).
    static var available: Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import elm"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }

    /// The TCP port (0 in pty mode).
    let port: UInt16
    /// The emulator's pseudo-terminal in pty mode.
    private(set) var ptyPath: String?
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    /// Starts the emulator in `scenario` on a TCP port (or on its own pty) and waits until it is ready.
    init(scenario: String = "car", pty: Bool = false) throws {
        port = pty ? 0 : try Self.freePort()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script, pty ? "pty" : String(port), scenario]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ready = try expect("READY")
        if pty { ptyPath = String(ready.dropFirst("READY ".count)) }
    }

    deinit { stop() }

    /// Where to connect.
    var endpoint: OBDEndpoint { .tcp(host: "127.0.0.1", port: port) }

    /// SIGKILLs the emulator (the dongle vanishes); returns when it is dead.
    func kill() throws {
        try send("kill")
        try expect("KILLED")
    }

    /// Starts it again on the same port; returns when it answers.
    func start() throws {
        try send("start")
        try expect("READY")
    }

    /// SIGSTOPs the emulator: its port stays open and nothing answers (a hung dongle).
    func pause() throws {
        try send("pause")
        try expect("PAUSED")
    }

    /// SIGCONTs a paused emulator.
    func resume() throws {
        try send("resume")
        try expect("RESUMED")
    }

    /// Drives the car: from now on the emulator answers vehicle speed with `kmh` and engine speed with 800 + 20 ×
    /// `kmh` rpm, instead of the scenario's recorded values (also after a kill and start).
    func setSpeed(_ kmh: Int) throws {
        try send("speed \(kmh)")
        try expect("SPEED")
    }

    /// How many speed answers the emulator gave since the first ``setSpeed(_:)``.
    func servedSpeeds() throws -> Int {
        try send("served")
        return Int(try expect("SERVED").split(separator: " ").last ?? "") ?? 0
    }

    /// Stops the emulator and its keeper. Idempotent.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func send(_ command: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Reads lines from the keeper until one starts with `prefix` and returns it; fails on FAILED or end of output.
    @discardableResult
    private func expect(_ prefix: String) throws -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.hasPrefix(prefix) { return line }
                if line.hasPrefix("FAILED") { throw PeerError.failed(line) }
                continue
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw PeerError.failed("the emulator keeper exited") }
            pending.append(chunk)
        }
    }

    enum PeerError: Error { case failed(String) }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PeerError.failed("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw PeerError.failed("bind") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// A gateway authenticated with a local key, for the tests.
func authenticatedGateway(
    eventLog: OBDEventLog? = nil, bluetooth: (any DeviceTransportFactory)? = nil,
    configuration: OBDGateway.Configuration = .init()
) -> OBDGateway {
    let gateway = OBDGateway(
        validator: LocalKeyValidator(keys: ["test-key": "axon-tests"]), eventLog: eventLog, bluetooth: bluetooth,
        configuration: configuration)
    _ = gateway.authenticate(apiKey: "test-key", issuedTo: "axon-tests")
    return gateway
}
