import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `KnownPeers` decides what Axon finds beyond its own machine. On one host liblsl 1.18 always reaches outlets on
/// their ports whatever the peer list says, so the outlet here runs on a second host: a network namespace this test
/// makes, joined to this one by a veth pair with a private /30 that exists only between the two.
@Suite("LSL peer list against an outlet on another host", .serialized, .enabled(if: LSLPeer.available && NetworkNamespace.usable))
struct LSLPeerListTests {
    struct Listed: Decodable {
        var name: String
        var sourceID: String
    }

    static func list(configuration: String) throws -> [Listed] {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: axon)
        process.arguments = ["lsl", "list", "--json", "--seconds", "2", "--lsl-config", configuration]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode([Listed].self, from: output)
    }

    @Test func aStreamOutsideThePeerListIsNotFound() throws {
        let host = try NetworkNamespace()
        defer { host.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-lsl-peers-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func configuration(_ name: String, knownPeers: String) throws -> String {
            let file = folder.appendingPathComponent("\(name).cfg")
            try "[ports]\nIPv6 = disable\n[multicast]\nResolveScope = machine\n[lab]\nKnownPeers = {\(knownPeers)}\n"
                .write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        // The outlet's host answers queries on its own interfaces; machine scope keeps its multicast at home.
        let peerConfiguration = try configuration("peer", knownPeers: "")
        let name = "axon-peers-\(UUID().uuidString.prefix(8))"
        let peer = try LSLPeer.Process(
            [
                "play", "--name", name, "--source-id", name, "--file", LSLPeer.recording, "--seconds", "20",
                "--linger", "0",
            ], configuration: peerConfiguration, launcher: host.launcher)
        defer { peer.finish(timeout: 1) }
        try #require(peer.waitForLine(containing: "ready", timeout: 20) != nil)

        // Asked directly by unicast, the other host answers once its responders are up: ask again (2 s a round)
        // until it does, for up to 30 s on a loaded machine.
        let listingConfiguration = try configuration("listing", knownPeers: host.peerAddress)
        var listing: [Listed] = []
        _ = try waitUntil(seconds: 30, interval: 0, onTimeout: .returnFalse) {
            listing = try Self.list(configuration: listingConfiguration)
            return listing.contains { $0.name == name }
        }
        // (Outlets of this host are always listed too: whatever else runs here may show up beside it.)
        #expect(listing.contains { $0.name == name }, "the peer list names the outlet's host: \(listing.map(\.name))")
        let other = try Self.list(configuration: configuration("other", knownPeers: "127.0.0.1"))
        #expect(!other.contains { $0.name == name }, "a peer list without the host")
        let project = try Self.list(configuration: LSLPeer.configuration)
        #expect(!project.contains { $0.name == name }, "the project's machine-only configuration")
    }
}

/// A second network host for a test: a namespace with a veth pair to this one, addresses on a private /30.
struct NetworkNamespace {
    /// iproute2's `ip`.
    static let tool = ["/usr/sbin/ip", "/usr/bin/ip", "/sbin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether this process may make namespaces (root, with iproute2).
    static var usable: Bool { getuid() == 0 && tool != nil }

    /// The command that runs a program inside the namespace.
    var launcher: [String] { [Self.tool!, "netns", "exec", name] }

    let name: String
    let link: String
    /// This side's address and the namespace's.
    let localAddress: String
    let peerAddress: String

    init() throws {
        let id = Int(getpid()) % 50_000
        name = "axon-ns\(id)"
        link = "axon-v\(id)"
        let subnet = id % 64 * 4
        localAddress = "10.213.77.\(subnet + 1)"
        peerAddress = "10.213.77.\(subnet + 2)"
        remove()
        let inner = "\(link)p"
        for command in [
            ["netns", "add", name],
            ["link", "add", link, "type", "veth", "peer", "name", inner],
            ["link", "set", inner, "netns", name],
            ["addr", "add", "\(localAddress)/30", "dev", link],
            ["link", "set", link, "up"],
            ["-n", name, "addr", "add", "\(peerAddress)/30", "dev", inner],
            ["-n", name, "link", "set", inner, "up"],
            ["-n", name, "link", "set", "lo", "up"],
        ] {
            let status = Self.ip(command)
            guard status == 0 else {
                remove()
                throw NamespaceError(command: command, status: status)
            }
        }
    }

    /// Deletes the namespace (its end of the veth pair goes with it, and so does this one).
    func remove() {
        _ = Self.ip(["link", "del", link])
        _ = Self.ip(["netns", "del", name])
    }

    struct NamespaceError: Error, CustomStringConvertible {
        var command: [String]
        var status: Int32
        var description: String { "ip \(command.joined(separator: " ")) exited with \(status)" }
    }

    @discardableResult
    private static func ip(_ arguments: [String]) -> Int32 {
        let process = Process()
        guard let tool else { return -1 }
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
