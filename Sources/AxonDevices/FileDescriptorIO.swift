import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// poll(2)-bounded reads and writes on a non-blocking file descriptor, shared by the serial port and the TCP link
/// of the OBD adapter.
///
/// Threading: a value type holding a descriptor; its owner (one link) calls it from one thread at a time.
package struct FileDescriptorIO {
    /// The endpoint named in errors.
    package let endpoint: String
    /// Sockets are written with `send(MSG_NOSIGNAL)`: a peer that went away must be an error, not SIGPIPE.
    package var isSocket = false

    /// Describes the I/O on one endpoint.
    package init(endpoint: String, isSocket: Bool = false) {
        self.endpoint = endpoint
        self.isSocket = isSocket
    }

    /// Waits until `fd` is ready for `events` or `deadline` passes.
    package func wait(_ fd: Int32, for events: Int16, deadline: Double) throws(ByteLinkError) {
        while true {
            // A deadline already past still polls once, without waiting: "is anything there now?"
            let remaining = max(0, deadline - HostClock.now())
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let result: Int32
            do {
                result = try SystemCall.retrying("poll") {
                    // Computed again after a signal: the wait keeps its deadline.
                    let left = remaining > 0 ? max(0, deadline - HostClock.now()) : 0
                    return poll(&descriptor, 1, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
                }
            } catch {
                throw .io(endpoint: endpoint, operation: error.call, code: error.code)
            }
            if result == 0 {
                if remaining <= 0 || HostClock.now() >= deadline { throw .timeout(endpoint: endpoint, seconds: 0) }
                continue
            }
            if descriptor.revents & Int16(POLLNVAL) != 0 { throw .notOpen(endpoint: endpoint) }
            if descriptor.revents & (events | Int16(POLLHUP) | Int16(POLLERR)) != 0 { return }
        }
    }

    package func write(_ fd: Int32, _ bytes: [UInt8], deadline: Double) throws(ByteLinkError) {
        var offset = 0
        while offset < bytes.count {
            try wait(fd, for: Int16(POLLOUT), deadline: deadline)
            let written: Int
            do {
                written = try SystemCall.retrying(isSocket ? "send" : "write") {
                    bytes.withUnsafeBytes { raw in
                        isSocket
                            ? send(fd, raw.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                            : Glibc.write(fd, raw.baseAddress! + offset, bytes.count - offset)
                    }
                }
            } catch {
                if error.code == EAGAIN { continue }
                if [EPIPE, ECONNRESET, EIO].contains(error.code) { throw .closed(endpoint: endpoint) }
                throw .io(endpoint: endpoint, operation: "write", code: error.code)
            }
            offset += written
        }
    }

    /// The bytes available, waiting until at least one arrives or `deadline` passes.
    package func read(_ fd: Int32, deadline: Double) throws(ByteLinkError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 512)
        let result = buffer.withUnsafeMutableBytes { raw -> Result<Int, ByteLinkError> in
            do throws(ByteLinkError) { return .success(try read(fd, into: raw, deadline: deadline)) } catch {
                return .failure(error)
            }
        }
        let count = try result.get()
        return Array(buffer[0..<count])
    }

    /// Reads the bytes available into `buffer` (at most its size), waiting until at least one arrives or
    /// `deadline` passes; returns how many. Allocates nothing.
    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, deadline: Double)
        throws(ByteLinkError) -> Int
    {
        let start = HostClock.now()
        while true {
            do {
                try wait(fd, for: Int16(POLLIN), deadline: deadline)
            } catch .timeout {
                throw .timeout(endpoint: endpoint, seconds: max(0, deadline - start))
            }
            let count: Int
            do {
                count = try SystemCall.retrying("read") { Glibc.read(fd, buffer.baseAddress!, buffer.count) }
            } catch {
                if error.code == EAGAIN { continue }
                // A pty whose other side has gone away reads EIO.
                if error.code == EIO || error.code == ECONNRESET { throw .closed(endpoint: endpoint) }
                throw .io(endpoint: endpoint, operation: error.call, code: error.code)
            }
            if count > 0 { return count }
            throw .closed(endpoint: endpoint)
        }
    }
}
