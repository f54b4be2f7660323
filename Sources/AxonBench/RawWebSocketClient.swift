// AxonBench — a viewer of the live view that loads the server as a browser does, without one.

import AxonStreams
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The smallest WebSocket client that loads a server like a browser does: the upgrade, then reading (and
/// discarding) every byte on a thread of its own — or, with `reading` false, never reading at all. It passes the
/// view's token in the upgrade's target, as a program (not a browser: no cookie, no Origin) does.
///
/// Threading: `init` and `close` on one thread; ``bytesRead`` from any.
final class RawWebSocketClient: @unchecked Sendable {
    private final class Counter: Sendable { let bytes = ThreadLocked(0) }

    private let socket: Int32
    private let read = Counter()
    private var thread: Thread?

    /// Connects to the view on 127.0.0.1:`port` and sends the upgrade.
    ///
    /// - Throws: ``BenchError/setupFailed(_:cause:)`` when the socket cannot be made, connected or written.
    init(port: Int, token: String?, reading: Bool) throws(BenchError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw .setupFailed("socket: errno \(errno)") }
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw .setupFailed("connect to 127.0.0.1:\(port): errno \(errno)") }
        let query = token.map { "?token=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }
        let request = Array(("GET /ws\(query ?? "") HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        guard write(socket, request, request.count) == request.count else {
            throw .setupFailed("writing the upgrade request failed")
        }
        guard reading else { return }
        let read = read
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = Glibc.read(socket, &buffer, buffer.count)
                if count <= 0 { break }
                read.bytes.withLock { $0 += count }
            }
        }
        thread.start()
        self.thread = thread
    }

    /// Bytes read so far.
    var bytesRead: Int { read.bytes.withLock { $0 } }

    /// Shuts the socket down (ending the reading thread) and closes it.
    func close() {
        shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
    }
}
