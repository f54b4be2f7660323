import AxonDevices
import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ELM327 dongle behind a TCP socket: Wi-Fi dongles (on the dongle's own network, usually port 35000) and the emulator. The
/// connection is made non-blocking with a deadline, and Nagle's algorithm is off (commands are a few bytes).
///
/// Threading contract: see ``OBDByteLink`` — one owner at a time.
public final class TCPLink: OBDByteLink {
    /// Host name or address.
    public let host: String
    /// TCP port.
    public let port: UInt16
    /// Seconds ``open()`` waits for the connection.
    public let connectTimeout: Double
    /// `tcp:HOST:PORT`.
    public var endpoint: String { "tcp:\(host):\(port)" }
    private var fd: Int32 = -1
    private var io: FileDescriptorIO { FileDescriptorIO(endpoint: endpoint, isSocket: true) }

    /// Describes a TCP link; nothing is opened until ``open()``.
    public init(host: String, port: UInt16, connectTimeout: Double = 3) {
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
    }

    deinit { close() }

    /// Opens the link (see ``OBDByteLink/open()``); an open link is closed first.
    public func open() throws(OBDLinkError) {
        close()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .cannotOpen(endpoint: endpoint, code: status, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        let deadline = HostClock.now() + connectTimeout
        var lastError = OBDLinkError.cannotOpen(endpoint: endpoint, code: 0, reason: "no address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socketFD = socket(
                address.pointee.ai_family,
                address.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue)
                    | Int32(SOCK_CLOEXEC.rawValue), address.pointee.ai_protocol)
            guard socketFD >= 0 else {
                lastError = .cannotOpen(endpoint: endpoint, code: errno, reason: "socket failed")
                continue
            }
            do {
                try connect(socketFD, to: address.pointee, deadline: deadline)
                var one: Int32 = 1
                _ = setsockopt(socketFD, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                fd = socketFD
                return
            } catch {
                _ = Glibc.close(socketFD)
                lastError = error
            }
        }
        throw lastError
    }

    private func connect(_ socketFD: Int32, to address: addrinfo, deadline: Double) throws(OBDLinkError) {
        if Glibc.connect(socketFD, address.ai_addr, address.ai_addrlen) == 0 { return }
        guard errno == EINPROGRESS else {
            let code = errno
            throw .cannotOpen(endpoint: endpoint, code: code, reason: String(cString: strerror(code)))
        }
        do {
            try io.wait(socketFD, for: Int16(POLLOUT), deadline: deadline)
        } catch .timeout {
            throw .cannotOpen(endpoint: endpoint, code: ETIMEDOUT, reason: "connection timed out")
        }
        var socketError: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socketFD, SOL_SOCKET, SO_ERROR, &socketError, &length) == 0 else {
            throw .cannotOpen(endpoint: endpoint, code: errno, reason: "getsockopt failed")
        }
        guard socketError == 0 else {
            throw .cannotOpen(endpoint: endpoint, code: socketError, reason: String(cString: strerror(socketError)))
        }
    }

    /// Writes all of `bytes` by `deadline` (see ``OBDByteLink/write(_:deadline:)``).
    public func write(_ bytes: [UInt8], deadline: Double) throws(OBDLinkError) {
        guard fd >= 0 else { throw .notOpen(endpoint: endpoint) }
        try io.write(fd, bytes, deadline: deadline)
    }

    /// The bytes available, waiting until `deadline` (see ``OBDByteLink/read(deadline:)``).
    public func read(deadline: Double) throws(OBDLinkError) -> [UInt8] {
        guard fd >= 0 else { throw .notOpen(endpoint: endpoint) }
        return try io.read(fd, deadline: deadline)
    }

    /// Closes the descriptor; idempotent.
    public func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }
}
