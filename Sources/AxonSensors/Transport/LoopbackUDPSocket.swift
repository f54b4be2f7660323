// AxonSensors — a UDP socket bound to 127.0.0.1, the receiving end of the sensors that stream datagrams.

import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// A UDP socket bound to 127.0.0.1 (never another interface): what the OSC and UDP sensor sources receive on.
///
/// Threading: `init` on any thread; ``receive(into:timeoutMilliseconds:)`` on one thread at a time. The socket is
/// closed when the value goes away.
final class LoopbackUDPSocket: @unchecked Sendable {
    // Sendable invariant: the descriptor never changes after init; receiving is one thread's job.
    /// The bound port (the one the system chose when 0 was asked).
    let port: UInt16
    private let descriptor: Int32

    /// Binds 127.0.0.1:`port` (0: any free port).
    ///
    /// - Throws: the failing system call's error.
    init(port: UInt16) throws(SystemCallError) {
        let fd = try SystemCall.retrying("socket") {
            Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(INADDR_LOOPBACK).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        do {
            _ = try SystemCall.retrying("bind") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
                }
            }
            _ = try SystemCall.retrying("getsockname") {
                withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
            }
        } catch {
            close(fd)
            throw error
        }
        descriptor = fd
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    /// Waits up to `timeoutMilliseconds` for a datagram and copies it into `buffer` (a longer one is cut to fit).
    ///
    /// - Returns: its length, or `nil` when none came in time.
    /// - Throws: the failing system call's error.
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = try SystemCall.retrying("poll") { poll(&poller, 1, timeoutMilliseconds) }
        guard ready > 0 else { return nil }
        return try SystemCall.retrying("recv") { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
    }
}
