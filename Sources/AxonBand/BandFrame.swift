/// One frame of Axon's band framing (docs/band-protocol.md), either direction:
/// `type (1) | length (1) | payload (length) | checksum (1)`, checksum = the sum of all previous bytes mod 256.
///
/// Threading: a value type; share freely.
public struct BandFrame: Sendable, Hashable {
    /// What the frame is (`BandFrameType`'s raw values).
    public var type: UInt8
    /// At most 255 bytes.
    public var payload: [UInt8]

    /// The framing's version label, kept in every band stream's descriptor (`protocol`). `axon-band-2`: today's
    /// totals (`0x20`) carry the sport and the count, the supported-sports list (`0x25`) comes one entry per record
    /// with the band's names and units; `axon-band-1` had neither (docs/band-protocol.md, "Versions").
    public static let protocolLabel = "axon-band-2"

    /// Creates a value from its fields.
    public init(type: UInt8, payload: [UInt8]) {
        precondition(payload.count <= 255, "a band frame's payload is at most 255 bytes")
        self.type = type
        self.payload = payload
    }

    /// The frame on the wire.
    public var bytes: [UInt8] {
        var bytes = [type, UInt8(payload.count)] + payload
        bytes.append(Self.checksum(bytes[...]))
        return bytes
    }

    /// Parses one frame: the whole value must be exactly one frame.
    ///
    /// - Throws: ``BandDecodingError/tooShort(length:)``, ``BandDecodingError/lengthMismatch(declared:actual:)``,
    ///   ``BandDecodingError/badChecksum(expected:found:)``.
    public init(parsing bytes: [UInt8]) throws(BandDecodingError) {
        guard bytes.count >= 3 else { throw .tooShort(length: bytes.count) }
        let declared = Int(bytes[1])
        guard bytes.count == declared + 3 else { throw .lengthMismatch(declared: declared, actual: bytes.count - 3) }
        let expected = Self.checksum(bytes[..<(bytes.count - 1)])
        guard expected == bytes[bytes.count - 1] else {
            throw .badChecksum(expected: expected, found: bytes[bytes.count - 1])
        }
        type = bytes[0]
        payload = Array(bytes[2..<(bytes.count - 1)])
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt8 {
        UInt8(truncatingIfNeeded: bytes.reduce(0) { $0 &+ Int($1) })
    }
}

/// Little-endian field reader over a frame's payload; every read past the end is a typed error.
///
/// Threading: a value type, used by one thread.
struct ByteReader {
    let bytes: [UInt8]
    let type: UInt8
    private(set) var index = 0

    init(_ bytes: [UInt8], type: UInt8) {
        self.bytes = bytes
        self.type = type
    }

    var remaining: Int { bytes.count - index }

    mutating func u8() throws(BandDecodingError) -> UInt8 {
        guard index < bytes.count else { throw .truncated(type: type, needed: index + 1, length: bytes.count) }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16() throws(BandDecodingError) -> UInt16 {
        UInt16(try u8()) | UInt16(try u8()) << 8
    }

    mutating func u32() throws(BandDecodingError) -> UInt32 {
        UInt32(try u16()) | UInt32(try u16()) << 16
    }

    mutating func take(_ count: Int) throws(BandDecodingError) -> [UInt8] {
        guard count <= remaining else { throw .truncated(type: type, needed: index + count, length: bytes.count) }
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    func end() throws(BandDecodingError) {
        guard remaining == 0 else { throw .trailingBytes(type: type, count: remaining) }
    }
}

/// Little-endian field writer.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u8(_ v: Int) { bytes.append(UInt8(truncatingIfNeeded: v)) }
    mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    mutating func u16(_ v: Int) { bytes += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
    mutating func u32(_ v: Int) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> shift)) }
    }
    mutating func text(_ s: String) {
        let utf8 = Array(s.utf8)
        bytes.append(UInt8(truncatingIfNeeded: utf8.count))
        bytes += utf8
    }
}
