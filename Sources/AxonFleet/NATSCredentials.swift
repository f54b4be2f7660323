import Foundation

/// How a client proves who it is to the NATS servers of a real deployment (the tests' loopback cluster has no
/// authentication).
///
/// Threading: a plain value, `Sendable`.
public enum NATSCredentials: Sendable, Hashable {
    /// No authentication.
    case none
    /// A user name and password from the server's `authorization { users = […] }`.
    case userPassword(user: String, password: String)
    /// A shared token (`authorization { token = … }`).
    case token(String)
    /// An NKey: its public key (`U…`) and the file holding its seed (`SU…`); the seed signs the server's nonce and
    /// never leaves the machine.
    case nkey(publicKey: String, seedFile: String)
    /// A `.creds` file (a user JWT and its NKey seed, as `nsc` writes them) for operator/account deployments.
    case credentialsFile(String)
}

/// Where and how to connect.
///
/// Threading: a plain value, `Sendable`.
public struct NATSOptions: Sendable, Hashable {
    /// Server URLs (`nats://host:port`); the client fails over between them. An element may list several,
    /// comma-separated, as the NATS tools take them (`nats://a:4222,nats://b:4222`).
    public var urls: [String]
    /// Authentication.
    public var credentials: NATSCredentials
    /// The connection's name as the servers show it.
    public var name: String
    /// Connect timeout and JetStream API / publish acknowledgement timeout, seconds.
    public var timeout: Double
    /// Keep reconnecting forever (a gateway or a worker), or give up after the library's default attempts.
    public var reconnectForever: Bool

    /// Every server of ``urls``, comma-separated lists split and blanks trimmed.
    public var serverURLs: [String] {
        urls.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Creates options.
    public init(
        urls: [String], credentials: NATSCredentials = .none, name: String = "axon", timeout: Double = 2,
        reconnectForever: Bool = true
    ) {
        self.urls = urls
        self.credentials = credentials
        self.name = name
        self.timeout = timeout
        self.reconnectForever = reconnectForever
    }
}
