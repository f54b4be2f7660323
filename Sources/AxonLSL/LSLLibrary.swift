import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// liblsl, loaded at run time with `dlopen`, and the table of the C functions Axon calls through `dlsym`.
///
/// Nothing links against liblsl: only LSL commands load it, through ``shared()``, which looks in this order at
/// `AXON_LIBLSL` (a path; if set it is the only candidate, so a wrong path is reported rather than silently
/// replaced), the project's `.liblsl/liblsl.so` (made by `scripts/python-peers.sh` from the pylsl wheel; searched
/// in the working directory and up from the executable's directory), then the system's library path
/// (`liblsl.so`, `liblsl.so.2`).
///
///     let lsl = try LSLLibrary.shared()
///     print(lsl.version, lsl.localClock())
///
/// Threading contract: the table is immutable after loading; liblsl's functions are thread-safe for distinct
/// objects (one inlet or outlet used by one thread at a time), which is how the types of this module use them.
public final class LSLLibrary: Sendable {
    /// The file that was loaded.
    public let path: String
    /// liblsl's library version (`lsl_library_version`: 118 for 1.18).
    public let version: Int32
    /// The C functions.
    let api: LSLFunctions

    private init(path: String, api: LSLFunctions) {
        self.path = path
        self.api = api
        self.version = api.libraryVersion()
    }

    private static let loaded = ThreadLocked<Result<LSLLibrary, LSLError>?>(nil)

    /// The process's liblsl, loaded on first use from the candidates of ``candidatePaths(environment:)``.
    ///
    /// - Throws: ``LSLError/libraryNotFound(tried:reason:)`` (the same error on every later call),
    ///   ``LSLError/missingSymbol(_:)`` or ``LSLError/unsupportedVersion(_:)``.
    public static func shared() throws(LSLError) -> LSLLibrary {
        let result = loaded.withLock { state -> Result<LSLLibrary, LSLError> in
            if let state { return state }
            let fresh: Result<LSLLibrary, LSLError>
            do throws(LSLError) {
                fresh = .success(try load(candidates: candidatePaths(environment: currentEnvironment())))
            } catch {
                fresh = .failure(error)
            }
            state = fresh
            return fresh
        }
        return try result.get()
    }

    /// `library`, or the process's liblsl when it is nil.
    static func given(_ library: LSLLibrary?) throws(LSLError) -> LSLLibrary {
        if let library { return library }
        return try shared()
    }

    /// Loads liblsl from the first candidate that `dlopen` accepts.
    ///
    /// - Throws: ``LSLError/libraryNotFound(tried:reason:)`` when none loads, with the last `dlerror` text.
    public static func load(candidates: [String]) throws(LSLError) -> LSLLibrary {
        var reason = "no candidate"
        for candidate in candidates {
            guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else {
                reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
                continue
            }
            let api = try LSLFunctions(handle: handle)
            let library = LSLLibrary(path: candidate, api: api)
            guard library.version >= 116 else { throw .unsupportedVersion(library.version) }
            return library
        }
        throw .libraryNotFound(tried: candidates, reason: reason)
    }

    /// Where liblsl is looked for, in order (see the type's documentation).
    public static func candidatePaths(environment: [String: String]) -> [String] {
        if let explicit = environment["AXON_LIBLSL"], !explicit.isEmpty { return [explicit] }
        var paths: [String] = []
        var seen = Set<String>()
        func add(_ path: String) { if seen.insert(path).inserted { paths.append(path) } }
        if let cwd = currentDirectory() { add(cwd + "/.liblsl/liblsl.so") }
        if var directory = executableDirectory() {
            for _ in 0..<6 {
                add(directory + "/.liblsl/liblsl.so")
                guard let slash = directory.lastIndex(of: "/"), slash != directory.startIndex else { break }
                directory = String(directory[..<slash])
            }
        }
        add("liblsl.so")
        add("liblsl.so.2")
        // Project copies that do not exist are left out, so the error names only what was really tried.
        return paths.filter { !$0.hasPrefix("/") || access($0, R_OK) == 0 }
    }

    /// Sets the liblsl configuration file for this process (`LSLAPICFG`). liblsl reads it once, at its first
    /// call that needs the network, so call this before ``shared()``'s first resolve, inlet or outlet.
    ///
    /// - Throws: ``LSLError/call(function:code:message:)`` if the file is unreadable or `setenv` fails.
    public static func useConfiguration(path: String) throws(LSLError) {
        guard access(path, R_OK) == 0 else {
            throw .call(function: "LSLAPICFG", code: -3, message: "cannot read \(path)")
        }
        guard setenv("LSLAPICFG", path, 1) == 0 else {
            throw .call(function: "setenv(LSLAPICFG)", code: -4, message: "errno \(errno)")
        }
    }

    /// liblsl's clock (seconds, the same CLOCK_MONOTONIC as Axon's `HostClock` on Linux).
    public func localClock() -> Double { api.localClock() }

    /// liblsl's text for the last error of this thread, or "".
    func lastError() -> String {
        guard let text = api.lastError() else { return "" }
        return String(cString: text)
    }

    /// Throws when `code` is a liblsl error code (negative).
    func check(_ code: Int32, _ function: String) throws(LSLError) {
        if code < 0 { throw .call(function: function, code: code, message: lastError()) }
    }

    private static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for key in ["AXON_LIBLSL"] {
            if let value = getenv(key) { result[key] = String(cString: value) }
        }
        return result
    }

    private static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
