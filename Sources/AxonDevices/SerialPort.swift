import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A serial device: a USB adapter (`/dev/ttyUSB0`, an OpenBCI dongle, an ELM327 cable), a Bluetooth classic
/// rfcomm port (`/dev/rfcomm0`) or a pseudo-terminal (a simulator's or an emulator's pty). The line is put in raw
/// mode (no echo, no line editing, 8N1) at `baudRate`; reads and writes are bounded by poll(2).
///
///     let port = SerialPort(path: "/dev/ttyUSB0", baudRate: 115_200)
///     try port.open()
///     try port.write(Array("v".utf8), deadline: HostClock.now() + 1)
///
/// Threading contract: not thread-safe; one owner at a time calls it. `close()` from the owner only.
public final class SerialPort {
    /// The device path.
    public let path: String
    /// The line speed (termios `B…` constant chosen from this number; ELM327 clones default to 38400).
    public let baudRate: Int
    /// The device path.
    public var endpoint: String { path }
    private var fd: Int32 = -1
    private var io: FileDescriptorIO { FileDescriptorIO(endpoint: path) }

    /// Describes a serial link; nothing is opened until ``open()``.
    public init(path: String, baudRate: Int = 38_400) {
        self.path = path
        self.baudRate = baudRate
    }

    deinit { close() }

    /// Opens the line in raw mode; an open port is closed first. Throws `.cannotOpen` with errno and a reason.
    public func open() throws(ByteLinkError) {
        close()
        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw .cannotOpen(endpoint: path, code: code, reason: String(cString: strerror(code)))
        }
        var options = termios()
        guard tcgetattr(descriptor, &options) == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            throw .cannotOpen(endpoint: path, code: code, reason: "not a terminal: \(String(cString: strerror(code)))")
        }
        cfmakeraw(&options)
        options.c_cflag |= tcflag_t(CLOCAL | CREAD)
        let speed = Self.speedConstant(baudRate)
        guard cfsetispeed(&options, speed) == 0, cfsetospeed(&options, speed) == 0,
            tcsetattr(descriptor, TCSANOW, &options) == 0
        else {
            let code = errno
            _ = Glibc.close(descriptor)
            throw .cannotOpen(endpoint: path, code: code, reason: "cannot set raw mode at \(baudRate) baud")
        }
        // Bytes a previous session left in the driver's buffers would be read as the answer to our first command.
        _ = tcflush(descriptor, TCIOFLUSH)
        fd = descriptor
    }

    /// Writes all of `bytes` by `deadline` (``AxonStreams/HostClock`` seconds); a write still pending then throws
    /// `.timeout`.
    public func write(_ bytes: [UInt8], deadline: Double) throws(ByteLinkError) {
        guard fd >= 0 else { throw .notOpen(endpoint: path) }
        try io.write(fd, bytes, deadline: deadline)
    }

    /// The bytes available, waiting until at least one arrives or `deadline` (``AxonStreams/HostClock`` seconds)
    /// passes (``ByteLinkError/timeout(endpoint:seconds:)``). Never returns an empty array.
    public func read(deadline: Double) throws(ByteLinkError) -> [UInt8] {
        guard fd >= 0 else { throw .notOpen(endpoint: path) }
        return try io.read(fd, deadline: deadline)
    }

    /// Reads the bytes available into `buffer`, waiting as ``read(deadline:)`` does; returns how many (≥ 1).
    /// Allocates nothing, for a streaming loop.
    public func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Double) throws(ByteLinkError) -> Int {
        guard fd >= 0 else { throw .notOpen(endpoint: path) }
        return try io.read(fd, into: buffer, deadline: deadline)
    }

    /// Hands the open descriptor to the caller, who closes it from now on (``ByteStreamTransport`` reads it on its
    /// own thread); the port is left closed. -1 when it was not open.
    package func detachDescriptor() -> Int32 {
        defer { fd = -1 }
        return fd
    }

    /// Closes the descriptor; idempotent.
    public func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    /// The termios constant for a baud rate; unknown rates fall back to 38400.
    package static func speedConstant(_ baud: Int) -> speed_t {
        switch baud {
        case 9_600: return speed_t(B9600)
        case 19_200: return speed_t(B19200)
        case 57_600: return speed_t(B57600)
        case 115_200: return speed_t(B115200)
        case 230_400: return speed_t(B230400)
        default: return speed_t(B38400)
        }
    }
}
