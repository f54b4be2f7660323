/// Reads little-endian fields from a byte array, checking every length (a short packet is a typed error, never a
/// trap).
///
/// Threading: a value type used by one decoder call.
struct ByteReader {
    let bytes: [UInt8]
    let what: String
    private(set) var offset = 0

    init(_ bytes: [UInt8], what: String) {
        self.bytes = bytes
        self.what = what
    }

    var remaining: Int { bytes.count - offset }

    /// Throws unless at least `count` more bytes follow.
    func require(_ count: Int) throws(ScaleError) {
        guard remaining >= count else {
            throw .malformed(what: what, problem: .tooShort(needed: offset + count, got: bytes.count))
        }
    }

    mutating func uint8() throws(ScaleError) -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(ScaleError) -> UInt16 {
        try require(2)
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func uint32() throws(ScaleError) -> UInt32 {
        try require(4)
        let low = UInt32(try uint16())
        return low | UInt32(try uint16()) << 16
    }

    /// Throws unless every byte was read.
    func requireEnd() throws(ScaleError) {
        guard remaining == 0 else {
            throw .malformed(what: what, problem: .tooLong(expected: offset, got: bytes.count))
        }
    }
}

extension Array where Element == UInt8 {
    mutating func appendLE(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    mutating func appendLE(_ value: UInt32) {
        appendLE(UInt16(value & 0xFFFF))
        appendLE(UInt16(value >> 16))
    }
}
