import Foundation
import StreamTestSupport
import Testing

@testable import AxonFleet

/// Authentication against a real nats-server (one node on a free loopback port) with its `authorization` block on:
/// a token, users with passwords, and an NKey user. The right credentials connect; wrong or missing ones fail with
/// a ``NATSError`` that says the server refused them. And `axon fleet status --token` as a user runs it.
@Suite(.serialized, .enabled(if: NATSCluster.available, "nats-server is installed by scripts/install-deps.sh --test"))
struct FleetAuthTests {
    static let token = "fleet-token-7d1c"

    /// Connects with `credentials`: `nil` when it worked, else the error.
    func attempt(_ server: NATSCluster, _ credentials: NATSCredentials) -> NATSError? {
        do {
            _ = try NATSConnection(.init(urls: server.urls, credentials: credentials, timeout: 2, reconnectForever: false))
            return nil
        } catch { return error }
    }

    func expectRefused(_ error: NATSError?, _ what: String) {
        guard let error else {
            Issue.record("\(what) connected")
            return
        }
        #expect(error.isAuthenticationFailure, "\(what): \(error)")
        #expect(error.description.contains("Authorization Violation"), "\(what): \(error)")
    }

    @Test func token() throws {
        let server = try NATSCluster(count: 1, authorization: "token: \"\(Self.token)\"", credentials: .token(Self.token))
        #expect(attempt(server, .token(Self.token)) == nil)
        expectRefused(attempt(server, .token("not-the-token")), "a wrong token")
        expectRefused(attempt(server, .none), "no token")
    }

    @Test func userAndPassword() throws {
        let server = try NATSCluster(
            count: 1, authorization: "users = [ { user: gateway, password: \"pw-gw\" }, { user: worker, password: \"pw-wk\" } ]",
            credentials: .userPassword(user: "worker", password: "pw-wk"))
        #expect(attempt(server, .userPassword(user: "gateway", password: "pw-gw")) == nil)
        #expect(attempt(server, .userPassword(user: "worker", password: "pw-wk")) == nil)
        expectRefused(attempt(server, .userPassword(user: "gateway", password: "pw-wk")), "another user's password")
        expectRefused(attempt(server, .userPassword(user: "nobody", password: "pw-gw")), "an unknown user")
        expectRefused(attempt(server, .none), "no user")
    }

    /// An NKey user: the server knows only the public key; the client signs the server's nonce with the seed file.
    @Test func nkey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-nkey-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try NKeyUser.generate(in: folder, name: "user")
        let other = try NKeyUser.generate(in: folder, name: "other")
        #expect(user.publicKey.hasPrefix("U") && user.publicKey.count == 56)
        let server = try NATSCluster(
            count: 1, authorization: "users = [ { nkey: \"\(user.publicKey)\" } ]",
            credentials: .nkey(publicKey: user.publicKey, seedFile: user.seedFile.path))
        #expect(attempt(server, .nkey(publicKey: user.publicKey, seedFile: user.seedFile.path)) == nil)
        // The right public key with a seed that is not its own: the nonce's signature does not verify.
        expectRefused(attempt(server, .nkey(publicKey: user.publicKey, seedFile: other.seedFile.path)), "a foreign seed")
        expectRefused(attempt(server, .nkey(publicKey: other.publicKey, seedFile: other.seedFile.path)), "an unknown nkey")
        expectRefused(attempt(server, .none), "no nkey")
    }

    /// Every connection of a right NKey gets in. libnats 3.4 leaves the signature out of one CONNECT in 256 (when the
    /// signature's first byte is zero), so without ``NATSConnection/signedConnectAttempts`` about nine runs in ten of
    /// these 600 connections would see a refusal.
    @Test func everyNKeyConnectionGetsIn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-nkey-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try NKeyUser.generate(in: folder, name: "user")
        let credentials = NATSCredentials.nkey(publicKey: user.publicKey, seedFile: user.seedFile.path)
        let server = try NATSCluster(
            count: 1, authorization: "users = [ { nkey: \"\(user.publicKey)\" } ]", credentials: credentials)
        var refusals: [NATSError] = []
        for _ in 0..<600 {
            if let error = attempt(server, credentials) { refusals.append(error) }
        }
        #expect(refusals.isEmpty, "\(refusals.count) of 600 refused, first: \(String(describing: refusals.first))")
    }

    /// `axon fleet status --token`: the command line takes the credentials; without them it says why it failed. And
    /// `--nats` takes a comma-separated list.
    @Test func statusCommandWithToken() throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let server = try NATSCluster(count: 1, authorization: "token: \"\(Self.token)\"", credentials: .token(Self.token))
        let base = ["fleet", "status", "--replicas", "1", "--nats"] + server.urls
        let granted = try AxonExecutable.run(axon, base + ["--token", Self.token])
        #expect(granted.status == 0, "\(granted.output)")
        #expect(granted.output.contains("axon fleet status: 0 workers"), "\(granted.output)")
        #expect(granted.output.contains("stream AXON_RAW: 0 messages"), "\(granted.output)")
        // The NATS tools' comma-separated form, a server that refuses connections first in the list.
        let listed = try AxonExecutable.run(
            axon, ["fleet", "status", "--replicas", "1", "--nats", "nats://127.0.0.1:1,\(server.urls[0])", "--token", Self.token])
        #expect(listed.status == 0 && listed.output.contains("axon fleet status: 0 workers"), "\(listed.output)")
        let refused = try AxonExecutable.run(axon, base + ["--token", "not-the-token"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("cannot connect to NATS") && refused.output.contains("Authorization Violation"),
                "\(refused.output)")
    }
}

/// An NKey user made for a test: an Ed25519 key pair from openssl (installed by scripts/install-deps.sh --test), encoded
/// as NATS encodes them — base32 (RFC 4648, no padding) of a prefix byte, the 32 key bytes and a CRC-16/XMODEM,
/// little-endian. The public key starts with `U`, the seed with `SU`.
struct NKeyUser {
    let publicKey: String
    let seedFile: URL

    enum Failure: Error { case openssl(String) }

    static func generate(in folder: URL, name: String) throws -> NKeyUser {
        let privateDER = folder.appendingPathComponent("\(name).der")
        let publicDER = folder.appendingPathComponent("\(name).pub.der")
        try openssl(["genpkey", "-algorithm", "ed25519", "-outform", "DER", "-out", privateDER.path])
        try openssl(["pkey", "-inform", "DER", "-in", privateDER.path, "-pubout", "-outform", "DER", "-out", publicDER.path])
        // Both DER forms end with the raw 32 bytes: the private key's seed, the public key.
        let seed = Array(try Data(contentsOf: privateDER).suffix(32))
        let key = Array(try Data(contentsOf: publicDER).suffix(32))
        guard seed.count == 32, key.count == 32 else { throw Failure.openssl("short key") }
        let user: UInt8 = 20 << 3
        let seedPrefix: UInt8 = 18 << 3
        let seedFile = folder.appendingPathComponent("\(name).nk")
        try (encode([seedPrefix | (user >> 5), (user & 31) << 3] + seed) + "\n").write(
            to: seedFile, atomically: true, encoding: .utf8)
        return NKeyUser(publicKey: encode([user] + key), seedFile: seedFile)
    }

    private static func openssl(_ arguments: [String]) throws {
        let run = try AxonExecutable.run("/usr/bin/openssl", arguments)
        guard run.status == 0 else { throw Failure.openssl(run.output) }
    }

    private static func encode(_ raw: [UInt8]) -> String {
        var crc: UInt16 = 0
        for byte in raw {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        let bytes = raw + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var text = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = ((buffer << 8) | Int(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                text.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { text.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return text
    }
}
