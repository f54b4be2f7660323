#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal pair for simulated serial devices: the device side (`master`, which the simulator reads and
/// writes) and the path of the client side (`/dev/pts/N`), which a ``AxonDevices/SerialPort`` opens like a USB
/// dongle. The client side is also held open here, in raw mode (no echo, no line editing), so the pty stays up
/// between clients and nothing the simulator writes is ever echoed back.
///
/// glibc's `posix_openpt`, `grantpt`, `unlockpt` and `ptsname_r` are not visible through Swift's Glibc module (their
/// declarations sit behind `_XOPEN_SOURCE`), so they are looked up by name in the C library at run time.
///
/// Threading: immutable after `init`; the descriptors belong to the owner, which closes them with ``close()``.
struct PseudoTerminal {
    /// The device side, non-blocking.
    let master: Int32
    /// The client side's descriptor, held open by the simulator.
    let heldClient: Int32
    /// The client side's path.
    let path: String

    private typealias OpenFunction = @convention(c) (Int32) -> Int32
    private typealias FDFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    init() throws(SimulatedCytonError) {
        guard let openSymbol = dlsym(nil, "posix_openpt"), let grantSymbol = dlsym(nil, "grantpt"),
            let unlockSymbol = dlsym(nil, "unlockpt"), let nameSymbol = dlsym(nil, "ptsname_r")
        else { throw .pty(operation: "dlsym(posix_openpt, grantpt, unlockpt, ptsname_r)", code: ENOSYS) }
        let openpt = unsafeBitCast(openSymbol, to: OpenFunction.self)
        let grant = unsafeBitCast(grantSymbol, to: FDFunction.self)
        let unlock = unsafeBitCast(unlockSymbol, to: FDFunction.self)
        let name = unsafeBitCast(nameSymbol, to: NameFunction.self)
        let master = openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw .pty(operation: "posix_openpt", code: errno) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard grant(master) == 0, unlock(master) == 0, name(master, &buffer, buffer.count) == 0 else {
            let code = errno
            _ = Glibc.close(master)
            throw .pty(operation: "grantpt/unlockpt/ptsname_r", code: code)
        }
        let path = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let client = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        var options = termios()
        guard client >= 0, tcgetattr(client, &options) == 0 else {
            let code = errno
            if client >= 0 { _ = Glibc.close(client) }
            _ = Glibc.close(master)
            throw .pty(operation: "open \(path)", code: code)
        }
        cfmakeraw(&options)
        let flags = fcntl(master, F_GETFL)
        guard tcsetattr(client, TCSANOW, &options) == 0, flags >= 0, fcntl(master, F_SETFL, flags | O_NONBLOCK) == 0
        else {
            let code = errno
            _ = Glibc.close(client)
            _ = Glibc.close(master)
            throw .pty(operation: "raw mode on \(path)", code: code)
        }
        self.master = master
        self.heldClient = client
        self.path = path
    }

    /// Closes both descriptors.
    func close() {
        _ = Glibc.close(heldClient)
        _ = Glibc.close(master)
    }
}
