#if canImport(Glibc)
    import Glibc
#endif

/// Which liblsl configuration a process uses: what it resolves, where it listens and whom it asks.
///
/// liblsl reads its configuration once, at its first network use, so ``apply(to:)`` comes before any resolve,
/// inlet or outlet. The command line applies ``machineOnly`` unless told otherwise (`--lsl-config PATH`, or an
/// `LSLAPICFG` in the environment): LSL stays on this machine by default. docs/lsl.md explains every key.
///
/// Threading: a value type; `apply` once per process, from the thread that then uses LSL.
public enum LSLConfiguration: Sendable, Hashable {
    /// Axon's built-in configuration (``machineOnlyText``, the same keys as the project's
    /// `scripts/lsl/lsl_api.cfg`): IPv6 off, discovery on 127.0.0.1 only, the multicast responder bound to
    /// loopback.
    case machineOnly
    /// A configuration file of the lab's.
    case file(String)
    /// liblsl's own search: `LSLAPICFG`, then `lsl_api.cfg` in the working directory, `~/lsl_api/lsl_api.cfg`,
    /// `/etc/lsl_api/lsl_api.cfg`, then liblsl's defaults (which reach the whole site).
    case liblslDefault

    /// The built-in machine-only configuration, in liblsl's INI syntax.
    public static let machineOnlyText = """
        [ports]
        IPv6 = disable

        [multicast]
        ResolveScope = machine
        MachineAddresses = {127.0.0.1}
        ListenAddress = 127.0.0.1
        Interfaces = {127.0.0.1}

        [lab]
        KnownPeers = {127.0.0.1}

        [log]
        level = -2

        """

    /// The configuration a command uses: `path` when given, else liblsl's own search when `LSLAPICFG` is set,
    /// else ``machineOnly``.
    public static func forCommand(path: String?) -> LSLConfiguration {
        if let path { return .file(path) }
        if let set = getenv("LSLAPICFG"), set.pointee != 0 { return .liblslDefault }
        return .machineOnly
    }

    /// Hands the configuration to liblsl.
    ///
    /// - Throws: ``LSLError/call(function:code:message:)`` for an unreadable file, ``LSLError/missingSymbol(_:)``
    ///   when the library cannot take a configuration (older than 1.16).
    public func apply(to library: LSLLibrary) throws(LSLError) {
        switch self {
        case .machineOnly:
            guard let set = library.api.setConfigContent else { throw .missingSymbol("lsl_set_config_content") }
            set(Self.machineOnlyText)
        case .file(let path):
            guard access(path, R_OK) == 0 else {
                throw .call(function: "lsl_set_config_filename", code: -3, message: "cannot read \(path)")
            }
            guard let set = library.api.setConfigFilename else { throw .missingSymbol("lsl_set_config_filename") }
            // liblsl prefers an `LSLAPICFG` in the environment to the file named here, so a command's --lsl-config
            // would lose to one inherited from its parent: point the variable at the same file first.
            guard setenv("LSLAPICFG", path, 1) == 0 else {
                throw .call(function: "setenv(LSLAPICFG)", code: -4, message: "errno \(errno)")
            }
            set(path)
        case .liblslDefault:
            break
        }
    }
}
