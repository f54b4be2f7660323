import AxonFleet
import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real JetStream cluster of three `nats-server` processes (Debian's nats-server, installed by
/// scripts/install-deps.sh --test) on free loopback ports, with its data in a temporary folder — or one server
/// (`count: 1`), optionally with an `authorization { … }` block that its clients answer with `credentials`.
///
/// Each server runs as a ``KeptProcess``, so no server outlives the tests.
final class NATSCluster {
    enum ClusterError: Error { case failed(String) }

    static let serverPath = "/usr/sbin/nats-server"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: serverPath) }

    let directory: URL
    let clientPorts: [UInt16]
    private let routePorts: [UInt16]
    private let credentials: NATSCredentials
    private var nodes: [KeptProcess?]

    /// Starts `count` servers and waits until JetStream answers with a quorum (`count` replicas).
    ///
    /// - Parameters:
    ///   - authorization: the body of the servers' `authorization { … }` block; none when `nil`.
    ///   - credentials: what the readiness check connects with.
    init(count: Int = 3, authorization: String? = nil, credentials: NATSCredentials = .none) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("axon-nats-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ports = try Self.freePorts(2 * count)
        clientPorts = Array(ports.prefix(count))
        routePorts = Array(ports.suffix(count))
        self.credentials = credentials
        nodes = Array(repeating: nil, count: count)
        let routes = routePorts.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
        for index in 0..<count {
            var config = """
                server_name: n\(index)
                listen: 127.0.0.1:\(clientPorts[index])
                jetstream { store_dir: "\(directory.path)/n\(index)", max_memory_store: 64MB }

                """
            if count > 1 {
                config += "cluster { name: axon-test, listen: 127.0.0.1:\(routePorts[index]), routes: [\(routes)] }\n"
            }
            if let authorization { config += "authorization { \(authorization) }\n" }
            try config.write(to: configURL(index), atomically: true, encoding: .utf8)
            try start(index)
        }
        try waitForJetStream()
    }

    /// Set to keep the servers' and workers' logs (and stores) after the suite, to read a failure.
    static let keepVariable = "AXON_KEEP_NATS_LOGS"

    deinit {
        for index in nodes.indices { stop(index) }
        if ProcessInfo.processInfo.environment[Self.keepVariable] == nil {
            try? FileManager.default.removeItem(at: directory)
        } else {
            print("nats logs kept in \(directory.path)")
        }
    }

    /// Every client URL.
    var urls: [String] { clientPorts.map { "nats://127.0.0.1:\($0)" } }

    private func configURL(_ index: Int) -> URL { directory.appendingPathComponent("n\(index).conf") }

    /// Starts (or restarts, with its data) server `index`.
    func start(_ index: Int) throws {
        nodes[index] = try KeptProcess(
            Self.serverPath, ["-c", configURL(index).path], log: directory.appendingPathComponent("n\(index).log"))
        try waitForPort(clientPorts[index])
    }

    /// SIGKILLs server `index` (a crash: no goodbye to the cluster).
    func kill(_ index: Int) {
        nodes[index]?.kill()
        stop(index)
    }

    /// SIGSTOPs server `index`: its sockets stay open and nothing answers (a network that stopped passing packets).
    func pause(_ index: Int) { nodes[index]?.signal(SIGSTOP) }

    /// SIGCONTs a paused server.
    func resume(_ index: Int) { nodes[index]?.signal(SIGCONT) }

    private func stop(_ index: Int) {
        nodes[index]?.stop()
        nodes[index] = nil
    }

    private func waitForPort(_ port: UInt16) throws {
        let opened = waitUntil(seconds: 10, interval: 0.05, onTimeout: .returnFalse) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            return connected == 0
        }
        guard opened else { throw ClusterError.failed("port \(port) never opened") }
    }

    /// Until the streams can be made with three replicas (a meta leader is elected and every peer is known).
    private func waitForJetStream() throws {
        var lastError: (any Error)?
        let ready = waitUntil(seconds: 30, interval: 0.5, onTimeout: .returnFalse) {
            do {
                let nats = try NATSConnection(
                    .init(urls: urls, credentials: credentials, timeout: 2, reconnectForever: false))
                try FleetSubjects.ensure(on: nats, replicas: nodes.count)
                return true
            } catch {
                lastError = error
                return false
            }
        }
        guard ready else { throw ClusterError.failed("JetStream never became ready: \(String(describing: lastError))") }
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    /// Distinct free loopback ports (held open together so none is handed out twice).
    private static func freePorts(_ count: Int) throws -> [UInt16] {
        var descriptors: [Int32] = []
        defer { descriptors.forEach { close($0) } }
        var ports: [UInt16] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw ClusterError.failed("socket") }
            descriptors.append(fd)
            var address = loopback(0)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw ClusterError.failed("bind") }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            ports.append(UInt16(bigEndian: address.sin_port))
        }
        return ports
    }
}

/// A child process under a `/bin/sh` keeper that holds our pipe on its standard input: when the tests end — or
/// this process dies — the pipe closes and the keeper SIGKILLs the child, so nothing outlives the tests.
final class KeptProcess {
    let pid: pid_t
    private let keeper = Process()
    private let input = Pipe()
    private var stopped = false

    /// Starts `executable arguments…` with standard output and error appended to `log`.
    init(_ executable: String, _ arguments: [String], log: URL) throws {
        let output = Pipe()
        keeper.executableURL = URL(fileURLWithPath: "/bin/sh")
        keeper.arguments = ["-c", "log=\"$1\"; shift; \"$@\" >>\"$log\" 2>&1 & echo $!; read _; kill -9 $! 2>/dev/null", "keeper", log.path, executable] + arguments
        keeper.standardInput = input
        keeper.standardOutput = output
        try keeper.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw NATSCluster.ClusterError.failed("\(executable) did not start") }
            line.append(chunk)
        }
        guard let pid = pid_t(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw NATSCluster.ClusterError.failed("no pid from the keeper of \(executable)")
        }
        self.pid = pid
    }

    deinit { stop() }

    /// SIGKILL now (a crash).
    func kill() { _ = Glibc.kill(pid, SIGKILL) }

    /// SIGSTOP / SIGCONT.
    func signal(_ number: Int32) { _ = Glibc.kill(pid, number) }

    /// Lets the keeper kill the child and waits for the keeper.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = Glibc.kill(pid, SIGCONT)
        try? input.fileHandleForWriting.close()
        keeper.waitUntilExit()
    }
}
