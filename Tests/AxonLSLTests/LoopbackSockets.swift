import Foundation

/// The machine's IPv4 and IPv6 TCP/UDP sockets from `/proc/net`, to check that LSL traffic stays on loopback.
struct LoopbackSockets {
    struct Socket: Hashable {
        var kind: String
        var local: String
        var remote: String
    }

    let sockets: [Socket]

    init() throws {
        var found: [Socket] = []
        for kind in ["tcp", "udp", "tcp6", "udp6"] {
            let text = try String(contentsOfFile: "/proc/net/\(kind)", encoding: .ascii)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3 else { continue }
                found.append(Socket(kind: kind, local: String(fields[1]), remote: String(fields[2])))
            }
        }
        sockets = found
    }

    /// Sockets whose remote address is set and outside 127.0.0.0/8 (and ::1, ::ffff:127.x).
    var nonLoopbackRemotes: [Socket] { sockets.filter { !Self.isLoopbackOrUnset($0.remote) } }

    /// Sockets bound to the wildcard address (0.0.0.0 or ::) on `port`.
    func wildcard(port: Int) -> [Socket] {
        sockets.filter { Self.port($0.local) == port && Self.isUnsetAddress($0.local) }
    }

    /// Sockets bound to a loopback address on `port`.
    func loopback(port: Int) -> [Socket] {
        sockets.filter {
            Self.port($0.local) == port && !Self.isUnsetAddress($0.local) && Self.isLoopbackOrUnset($0.local)
        }
    }

    static func port(_ endpoint: String) -> Int? {
        endpoint.split(separator: ":").last.flatMap { Int($0, radix: 16) }
    }

    static func isUnsetAddress(_ endpoint: String) -> Bool {
        endpoint.split(separator: ":").first.map { $0.allSatisfy { $0 == "0" } } ?? false
    }

    /// `/proc/net` writes IPv4 addresses as 8 hex digits in host (little-endian) order: 127.0.0.1 is 0100007F.
    static func isLoopbackOrUnset(_ endpoint: String) -> Bool {
        guard let address = endpoint.split(separator: ":").first else { return false }
        if address.allSatisfy({ $0 == "0" }) { return true }
        if address.count == 8 { return address.hasSuffix("7F") }
        // IPv6 as four 32-bit little-endian words: ::1 and ::ffff:127.x.x.x.
        if address == "00000000000000000000000001000000" { return true }
        return address.hasPrefix("0000000000000000FFFF0000") && address.hasSuffix("7F")
    }
}
