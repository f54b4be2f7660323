import ArgumentParser
import AxonFleet
import Foundation

extension Axon {
    /// A fleet of devices on a NATS JetStream cluster (docs/fleet.md).
    struct Fleet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fleet",
            abstract: "A fleet of headsets on a NATS JetStream cluster: ingest gateways, engine workers, results.",
            discussion: "Subjects, streams, ownership and deployment: docs/fleet.md.",
            subcommands: [FleetIngest.self, FleetSimulate.self, FleetWorkerCommand.self, FleetResultsCommand.self,
                          FleetStatusCommand.self, FleetEventCommand.self, FleetEventsCommand.self])
    }
}

/// The connection options every `axon fleet` command takes.
struct FleetConnectionOptions: ParsableArguments {
    @Option(name: .customLong("nats"), parsing: .upToNextOption,
            help: "NATS server URLs, one or several per --nats, comma-separated as the NATS tools take them (the client fails over between them).")
    var urls: [String] = ["nats://127.0.0.1:4222"]

    @Option(help: "User name (with --password).")
    var user: String?

    @Option(help: "Password for --user (or the AXON_NATS_PASSWORD environment variable).")
    var password: String?

    @Option(help: "Authentication token (or the AXON_NATS_TOKEN environment variable).")
    var token: String?

    @Option(help: "NKey public key (U…), with --nkey-seed.")
    var nkey: String?

    @Option(help: "File holding the NKey's seed (SU…).")
    var nkeySeed: String?

    @Option(help: "A .creds file (user JWT and seed) for operator/account deployments.")
    var creds: String?

    @Option(help: "Stream and bucket replicas: 3 on a 3-node cluster, 1 on a single server.")
    var replicas: Int = 3

    func validate() throws {
        let methods = [user != nil, token != nil || ProcessInfo.processInfo.environment["AXON_NATS_TOKEN"] != nil,
                       nkey != nil || nkeySeed != nil, creds != nil].filter { $0 }.count
        guard methods <= 1 else { throw ValidationError("give one of --user, --token, --nkey/--nkey-seed, --creds") }
        guard (nkey == nil) == (nkeySeed == nil) else { throw ValidationError("--nkey and --nkey-seed go together") }
        guard !urls.isEmpty, (1...5).contains(replicas) else { throw ValidationError("need --nats URL and 1 ≤ --replicas ≤ 5") }
    }

    var credentials: NATSCredentials {
        let environment = ProcessInfo.processInfo.environment
        if let user { return .userPassword(user: user, password: password ?? environment["AXON_NATS_PASSWORD"] ?? "") }
        if let token = token ?? environment["AXON_NATS_TOKEN"] { return .token(token) }
        if let nkey, let nkeySeed { return .nkey(publicKey: nkey, seedFile: nkeySeed) }
        if let creds { return .credentialsFile(creds) }
        return .none
    }

    /// Connects; a failure ends the command with its one-line reason.
    func connect(name: String) throws -> NATSConnection {
        do { return try NATSConnection(.init(urls: urls, credentials: credentials, name: name)) } catch {
            throw CommandFailure("cannot connect to NATS: \(error)")
        }
    }
}

/// Prints a value as one JSON document.
func printFleetJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// The spool folder: `--spool`, else `$XDG_STATE_HOME/axon/spool` or `~/.local/state/axon/spool`.
func fleetSpoolDirectory(_ option: String?) -> URL {
    if let option { return URL(fileURLWithPath: option) }
    let environment = ProcessInfo.processInfo.environment
    let base = environment["XDG_STATE_HOME"].map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state")
    return base.appendingPathComponent("axon/spool")
}
