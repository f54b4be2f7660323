import ArgumentParser
import AxonDevices
import AxonLSL
import Foundation

extension Axon {
    /// Lab Streaming Layer commands.
    struct LSL: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lsl", abstract: "Lab Streaming Layer: list the streams Axon can reach, record them to XDF.",
            subcommands: [List.self, Record.self])

        /// Lists the LSL streams that answer within the timeout.
        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List LSL streams: name, type, channels, rate, format, source id, host.",
                discussion: """
                    liblsl is loaded at run time (AXON_LIBLSL, .liblsl/liblsl.so from scripts/python-peers.sh, then \
                    the system's library path). Without --lsl-config or LSLAPICFG only this machine is searched \
                    (see docs/lsl.md).
                    """)

            @Flag(help: "One JSON array instead of a table.")
            var json = false

            @Option(help: ArgumentHelp("Seconds to wait for streams to answer."))
            var seconds: Double = 1

            @Option(name: .customLong("timeout"), help: ArgumentHelp("Deprecated: --seconds.", visibility: .hidden))
            var deprecatedTimeout: Double?

            /// `--seconds`, or the old `--timeout`.
            var timeout: Double { deprecatedTimeout ?? seconds }

            @Option(help: "A liblsl configuration file (default: Axon's machine-only configuration).")
            var lslConfig: String?

            func run() throws {
                Deprecation.announce("--timeout", given: deprecatedTimeout != nil, use: "--seconds", command: "lsl list")
                let streams = try LSLCommandSupport.run(configuration: lslConfig) { library in
                    try LSLResolver.list(timeout: timeout, library: library)
                }
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    print(String(decoding: try encoder.encode(streams), as: UTF8.self))
                    return
                }
                print("\(streams.count) LSL stream\(streams.count == 1 ? "" : "s")")
                for stream in streams {
                    let rate = stream.nominalRate > 0 ? "\(fmt(stream.nominalRate, 3)) Hz" : "irregular"
                    print(
                        "  \(stream.name)  type \(stream.type), \(stream.channelCount) channels, \(rate), "
                            + "\(stream.channelFormat), source_id \(stream.sourceID.isEmpty ? "-" : stream.sourceID), "
                            + "host \(stream.hostname)")
                }
            }
        }
    }
}

/// What LSL commands share: loading liblsl with the right configuration, and failing with one clear line.
enum LSLCommandSupport {
    /// Loads liblsl, applies `--lsl-config` (or the machine-only default) and runs `body`; an ``LSLError`` ends
    /// the command with its one-line message and a non-zero status.
    static func run<T>(configuration path: String? = nil, _ body: (LSLLibrary) throws -> T) throws -> T {
        do {
            let library = try LSLLibrary.shared()
            try LSLConfiguration.forCommand(path: path).apply(to: library)
            return try body(library)
        } catch let error as LSLError {
            FileHandle.standardError.write(Data("axon: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// Whether `specifier` is an `lsl:…` SOURCE.
    static func isStream(_ specifier: SourceSpecifier) -> Bool {
        if case .lsl = specifier { return true }
        return false
    }

    /// Whether `text` is an `lsl:…` SOURCE.
    static func isStream(_ text: String) -> Bool {
        (try? SourceSpecifier(parsing: text)).map(isStream) ?? false
    }

    /// The stream selector of an `lsl:…` SOURCE, or nil for another kind.
    static func selector(_ specifier: SourceSpecifier) throws -> LSLStreamSelector? {
        guard case .lsl(let query) = specifier else { return nil }
        do { return try LSLStreamSelector(parsing: query) } catch { throw ValidationError("\(error)") }
    }

    /// The stream selector of an option that takes `lsl:…` only, or nil for text that is no `lsl:` SOURCE.
    static func selector(source text: String) throws -> LSLStreamSelector? {
        guard let specifier = try? SourceSpecifier(parsing: text) else { return nil }
        return try selector(specifier)
    }
}
