import AxonDevices
import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// A Bluetooth Classic RFCOMM connection through the kernel's Bluetooth sockets (`AF_BLUETOOTH`,
/// `BTPROTO_RFCOMM`): how a paired device's serial port channel (the Serial Port Profile, UUID 0x1101) is reached
/// without binding a `/dev/rfcommN`. The device must be paired (and, for most, trusted) through BlueZ first; the
/// channel is the one the device's SDP record names (`sdptool browse ADDRESS`, usually 1 for a serial port).
///
///     let transport = RFCOMMSocket.transport(address: try BluetoothAddress("00:1A:7D:DA:71:13"), channel: 1)
///
/// Threading: stateless; call from any thread.
public enum RFCOMMSocket {
    /// `AF_BLUETOOTH` (linux/socket.h).
    public static let addressFamily: Int32 = 31
    /// `BTPROTO_RFCOMM` (bluetooth/bluetooth.h).
    public static let rfcommProtocol: Int32 = 3

    /// The kernel's `struct sockaddr_rc` for `address` and `channel`: family (u16, host order), the address's six
    /// bytes least significant first (`bdaddr_t`), the channel, one byte of padding — 10 bytes.
    public static func socketAddress(_ address: BluetoothAddress, channel: UInt8) -> [UInt8] {
        let family = UInt16(addressFamily)
        return [UInt8(family & 0xFF), UInt8(family >> 8)] + address.bytes.reversed() + [channel, 0]
    }

    /// Connects to `channel` of `address` by `deadline` (``AxonStreams/HostClock`` seconds): a connected,
    /// non-blocking descriptor the caller owns.
    ///
    /// - Throws: ``AxonDevices/ByteLinkError/cannotOpen(endpoint:code:reason:)`` with errno — `EAFNOSUPPORT` (97)
    ///   where the kernel has no Bluetooth sockets (a container, a machine without a Bluetooth stack),
    ///   `EHOSTDOWN`/`ECONNREFUSED` for a device that is off or has no such channel —, or
    ///   ``AxonDevices/ByteLinkError/timeout(endpoint:seconds:)``.
    public static func connect(address: BluetoothAddress, channel: UInt8, deadline: Double) throws(ByteLinkError)
        -> Int32
    {
        let endpoint = "spp:\(address)@\(channel)"
        let fd = socket(addressFamily, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            | Int32(SOCK_NONBLOCK.rawValue), rfcommProtocol)
        guard fd >= 0 else {
            let code = errno
            throw .cannotOpen(endpoint: endpoint, code: code, reason: "no RFCOMM socket: \(String(cString: strerror(code)))")
        }
        let address = socketAddress(address, channel: channel)
        let started = address.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if started != 0 && errno != EINPROGRESS {
            let code = errno
            _ = Glibc.close(fd)
            throw .cannotOpen(endpoint: endpoint, code: code, reason: String(cString: strerror(code)))
        }
        if started != 0 {
            do throws(ByteLinkError) {
                try FileDescriptorIO(endpoint: endpoint, isSocket: true).wait(fd, for: Int16(POLLOUT), deadline: deadline)
            } catch {
                _ = Glibc.close(fd)
                throw error
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else {
                let code = failure != 0 ? failure : errno
                _ = Glibc.close(fd)
                throw .cannotOpen(endpoint: endpoint, code: code, reason: String(cString: strerror(code)))
            }
        }
        return fd
    }

    /// A ``AxonDevices/ByteStreamTransport`` that connects to `channel` of `address` and reconnects after a loss.
    public static func transport(address: BluetoothAddress, channel: UInt8 = 1, connectTimeout: Double = 10)
        -> ByteStreamTransport
    {
        ByteStreamTransport(name: "spp:\(address)@\(channel)", connectTimeout: connectTimeout) {
            deadline throws(ByteLinkError) -> Int32 in
            try connect(address: address, channel: channel, deadline: deadline)
        }
    }
}

/// A Bluetooth device address, `00:1A:7D:DA:71:13`: six bytes, most significant first as written.
///
/// Threading: a value type; share freely.
public struct BluetoothAddress: Sendable, Hashable, CustomStringConvertible {
    /// The six bytes in written order.
    public let bytes: [UInt8]

    /// Parses six two-digit hexadecimal bytes separated by colons.
    ///
    /// - Throws: ``BluetoothAddressError`` naming the text.
    public init(_ text: String) throws(BluetoothAddressError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let bytes = parts.compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        guard parts.count == 6, bytes.count == 6 else { throw BluetoothAddressError(text: text) }
        self.bytes = bytes
    }

    public var description: String {
        bytes.map { String($0, radix: 16, uppercase: true).leftPadded() }.joined(separator: ":")
    }
}

/// Text that is not a Bluetooth address (six hexadecimal bytes separated by colons).
public struct BluetoothAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text given.
    public let text: String
    public var description: String { "\(text) is not a Bluetooth address (six hex bytes: 00:1A:7D:DA:71:13)" }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
