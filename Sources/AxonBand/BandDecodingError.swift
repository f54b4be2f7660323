/// Why bytes from (or to) a band are not a valid frame or record. Decoding never traps: every malformed input is
/// one of these.
///
/// Threading: a value type; share freely.
public enum BandDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than the 3 bytes of an empty frame.
    case tooShort(length: Int)
    /// The length byte does not match the payload's size.
    case lengthMismatch(declared: Int, actual: Int)
    /// The checksum byte is wrong.
    case badChecksum(expected: UInt8, found: UInt8)
    /// A frame type this direction does not use.
    case unknownType(UInt8)
    /// The payload ends before its fields do.
    case truncated(type: UInt8, needed: Int, length: Int)
    /// Bytes after the payload's last field.
    case trailingBytes(type: UInt8, count: Int)
    /// A field out of its range (a month of 13, a sleep type of 9, an unknown sport code, text that is not UTF-8).
    case invalidField(type: UInt8, field: String, value: Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .tooShort(let length): "band frame of \(length) bytes (at least 3)"
        case .lengthMismatch(let declared, let actual): "band frame declares \(declared) payload bytes, has \(actual)"
        case .badChecksum(let expected, let found):
            "band frame checksum 0x\(String(found, radix: 16)), expected 0x\(String(expected, radix: 16))"
        case .unknownType(let type): "unknown band frame type 0x\(String(type, radix: 16))"
        case .truncated(let type, let needed, let length):
            "band frame 0x\(String(type, radix: 16)): payload of \(length) bytes, fields need \(needed)"
        case .trailingBytes(let type, let count): "band frame 0x\(String(type, radix: 16)): \(count) extra bytes"
        case .invalidField(let type, let field, let value):
            "band frame 0x\(String(type, radix: 16)): \(field) = \(value) is out of range"
        }
    }
}
