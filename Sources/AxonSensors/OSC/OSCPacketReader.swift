// AxonSensors — Open Sound Control 1.0 packets, read in place.

/// Why bytes are not an OSC 1.0 packet. `offset` is where in the packet the problem is.
///
/// Threading: a value type; share freely.
public enum OSCDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The packet is empty or its length is not a multiple of 4 (OSC pads every part to 4 bytes).
    case badLength(Int)
    /// A part runs past the end of the packet (or of its bundle element).
    case truncated(offset: Int, part: String)
    /// An OSC-string (the address, the type tags, a string argument) has no terminating NUL.
    case unterminatedString(offset: Int)
    /// A message's address does not start with `/`.
    case badAddress(offset: Int)
    /// A message has no type-tag string (OSC 1.0 makes it required; it starts with `,`).
    case missingTypeTags(offset: Int)
    /// A type tag this decoder does not know (an array bracket, a vendor's letter): the arguments after it cannot
    /// be found.
    case unknownTypeTag(UInt8, offset: Int)
    /// A bundle element's size is negative, not a multiple of 4, or larger than what is left.
    case badElementSize(Int32, offset: Int)
    /// Bundles nested deeper than ``OSCPacketReader/maximumDepth``.
    case nestedTooDeep(offset: Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .badLength(let length): "an OSC packet is a non-empty multiple of 4 bytes; this one is \(length)"
        case .truncated(let offset, let part): "the \(part) at byte \(offset) runs past the end of the packet"
        case .unterminatedString(let offset): "the OSC-string at byte \(offset) has no terminating NUL"
        case .badAddress(let offset): "the address at byte \(offset) does not start with /"
        case .missingTypeTags(let offset): "the message at byte \(offset) has no type tags (a string starting with ,)"
        case .unknownTypeTag(let tag, let offset):
            "unknown OSC type tag \"\(Character(UnicodeScalar(tag)))\" (0x\(String(tag, radix: 16))) at byte \(offset)"
        case .badElementSize(let size, let offset): "the bundle element at byte \(offset) has an impossible size \(size)"
        case .nestedTooDeep(let offset): "the bundle at byte \(offset) is nested too deep"
        }
    }
}

/// One argument of an OSC message, as it lies in the packet: numbers decoded (big-endian), strings and blobs as
/// the packet's own bytes (valid while the packet is).
///
/// Threading: a view; use it inside the closure that received it.
public enum OSCArgument {
    /// `i`: a 32-bit integer.
    case int32(Int32)
    /// `f`: a 32-bit IEEE float.
    case float32(Float)
    /// `s` or `S`: a string's bytes, without its NUL.
    case string(UnsafeRawBufferPointer)
    /// `b`: a blob's bytes.
    case blob(UnsafeRawBufferPointer)
    /// `h`: a 64-bit integer.
    case int64(Int64)
    /// `d`: a 64-bit IEEE float.
    case float64(Double)
    /// `t`: an NTP time tag (seconds since 1900 in the high 32 bits, fraction in the low 32).
    case timeTag(UInt64)
    /// `c`: an ASCII character, sent as 32 bits.
    case character(UInt8)
    /// `r`: an RGBA colour, 32 bits.
    case rgba(UInt32)
    /// `m`: a 4-byte MIDI message.
    case midi(UInt32)
    /// `T` or `F`: a boolean with no data.
    case bool(Bool)
    /// `N`: nil, no data.
    case null
    /// `I`: impulse ("infinitum"), no data.
    case impulse

    /// The argument as a number, when it is one (`i`, `f`, `h`, `d`, `T`/`F` as 1/0).
    public var number: Double? {
        switch self {
        case .int32(let value): Double(value)
        case .float32(let value): Double(value)
        case .int64(let value): Double(value)
        case .float64(let value): value
        case .bool(let value): value ? 1 : 0
        case .string, .blob, .timeTag, .character, .rgba, .midi, .null, .impulse: nil
        }
    }
}

/// One OSC message in a packet: its address pattern and its arguments, read in place.
///
/// Threading: a view over the packet's bytes; use it inside the closure that received it.
public struct OSCMessageView {
    /// The address pattern's bytes (`/muse/eeg`), without the NUL.
    public let address: UnsafeRawBufferPointer
    /// The type tags without the leading `,` (`ffff`).
    public let typeTags: UnsafeRawBufferPointer
    /// The argument data, 4-byte aligned, as the type tags describe it (checked before the view was handed out).
    let data: UnsafeRawBufferPointer
    /// The time tag of the innermost bundle that held the message (`nil`: a message on its own, "immediately").
    public let timeTag: UInt64?

    /// Whether the address is exactly `pattern` (compared byte for byte; allocates nothing).
    public func hasAddress(_ pattern: StaticString) -> Bool {
        pattern.withUTF8Buffer { expected in
            expected.count == address.count && expected.elementsEqual(address)
        }
    }

    /// The address as a string (allocates).
    public var addressString: String { String(decoding: address, as: UTF8.self) }

    /// Number of arguments.
    public var argumentCount: Int { typeTags.count }

    /// Calls `body` with each argument in order; allocates nothing.
    public func forEachArgument<Failure: Error>(_ body: (OSCArgument) throws(Failure) -> Void) throws(Failure) {
        var offset = 0
        for tag in typeTags {
            // The message was validated when it was read: every tag is known and its data fits.
            let (argument, size) = OSCPacketReader.argument(tag: tag, in: data, at: offset)!
            try body(argument)
            offset += size
        }
    }
}

/// Reads OSC 1.0 packets (a message, or a bundle of messages and bundles) in place: each message is checked whole
/// before it is handed out, and a packet that does not parse hands out nothing.
///
///     try OSCPacketReader.forEachMessage(in: datagram) { message in
///         guard message.hasAddress("/muse/eeg") else { return }
///         message.forEachArgument { if let value = $0.number { … } }
///     }
///
/// Threading: stateless; any thread. Allocates nothing.
public enum OSCPacketReader {
    /// How deep bundles may nest.
    public static let maximumDepth = 8

    /// Calls `body` with every message of `packet` in order (bundles opened, nested ones too), after checking the
    /// whole packet.
    ///
    /// - Throws: ``OSCDecodingError`` when any part of the packet is malformed; `body` is then not called.
    public static func forEachMessage(
        in packet: UnsafeRawBufferPointer, _ body: (OSCMessageView) -> Void
    ) throws(OSCDecodingError) {
        guard !packet.isEmpty, packet.count % 4 == 0 else { throw .badLength(packet.count) }
        try walk(packet, base: 0, timeTag: nil, depth: 0) { _ in }  // the whole packet is checked first
        try walk(packet, base: 0, timeTag: nil, depth: 0, body: body)
    }

    /// The packet in `part` (at `base` in the whole): a bundle's elements or one message.
    private static func walk(
        _ part: UnsafeRawBufferPointer, base: Int, timeTag: UInt64?, depth: Int, body: (OSCMessageView) -> Void
    ) throws(OSCDecodingError) {
        if isBundle(part) {
            guard depth < maximumDepth else { throw .nestedTooDeep(offset: base) }
            guard part.count >= 16 else { throw .truncated(offset: base, part: "bundle header") }
            let tag = bigEndianUInt64(part, at: 8)
            var offset = 16
            while offset < part.count {
                guard offset + 4 <= part.count else { throw .truncated(offset: base + offset, part: "bundle element size") }
                let size = Int32(bitPattern: bigEndianUInt32(part, at: offset))
                guard size >= 0, size % 4 == 0, Int(size) <= part.count - offset - 4 else {
                    throw .badElementSize(size, offset: base + offset)
                }
                let start = offset + 4
                let element = UnsafeRawBufferPointer(rebasing: part[start..<(start + Int(size))])
                if size > 0 { try walk(element, base: base + start, timeTag: tag, depth: depth + 1, body: body) }
                offset = start + Int(size)
            }
            return
        }
        let message = try readMessage(part, base: base, timeTag: timeTag)
        body(message)
    }

    private static func isBundle(_ part: UnsafeRawBufferPointer) -> Bool {
        part.count >= 8 && part.prefix(8).elementsEqual("#bundle\0".utf8)
    }

    /// One message: address, type tags, and arguments whose data must fit exactly.
    private static func readMessage(
        _ part: UnsafeRawBufferPointer, base: Int, timeTag: UInt64?
    ) throws(OSCDecodingError) -> OSCMessageView {
        guard part.first == UInt8(ascii: "/") else { throw .badAddress(offset: base) }
        let (address, afterAddress) = try string(part, at: 0, base: base)
        guard afterAddress < part.count, part[afterAddress] == UInt8(ascii: ",") else {
            throw .missingTypeTags(offset: base + afterAddress)
        }
        let (tags, afterTags) = try string(part, at: afterAddress, base: base)
        let typeTags = UnsafeRawBufferPointer(rebasing: tags.dropFirst())
        let data = UnsafeRawBufferPointer(rebasing: part[afterTags...])
        var offset = 0
        for (index, tag) in typeTags.enumerated() {
            guard let (_, size) = argument(tag: tag, in: data, at: offset) else {
                if isKnown(tag) { throw .truncated(offset: base + afterTags + offset, part: "argument \(index + 1)") }
                throw .unknownTypeTag(tag, offset: base + afterAddress + 1 + index)
            }
            offset += size
        }
        return OSCMessageView(address: address, typeTags: typeTags, data: data, timeTag: timeTag)
    }

    /// The OSC-string at `offset`: its bytes without the NUL, and the offset after its padding.
    private static func string(
        _ part: UnsafeRawBufferPointer, at offset: Int, base: Int
    ) throws(OSCDecodingError) -> (UnsafeRawBufferPointer, Int) {
        guard let end = part[offset...].firstIndex(of: 0) else { throw .unterminatedString(offset: base + offset) }
        let next = (end + 4) & ~3
        guard next <= part.count else { throw .truncated(offset: base + offset, part: "string padding") }
        return (UnsafeRawBufferPointer(rebasing: part[offset..<end]), next)
    }

    private static func isKnown(_ tag: UInt8) -> Bool {
        "ifsSbhdtcrmTFNI".utf8.contains(tag)
    }

    /// The argument with type `tag` at `offset` in `data` and the bytes it takes (padding included); `nil` when
    /// the tag is unknown or its data does not fit.
    static func argument(tag: UInt8, in data: UnsafeRawBufferPointer, at offset: Int) -> (OSCArgument, Int)? {
        let left = data.count - offset
        switch tag {
        case UInt8(ascii: "i"), UInt8(ascii: "f"), UInt8(ascii: "c"), UInt8(ascii: "r"), UInt8(ascii: "m"):
            guard left >= 4 else { return nil }
            let bits = bigEndianUInt32(data, at: offset)
            switch tag {
            case UInt8(ascii: "i"): return (.int32(Int32(bitPattern: bits)), 4)
            case UInt8(ascii: "f"): return (.float32(Float(bitPattern: bits)), 4)
            case UInt8(ascii: "c"): return (.character(UInt8(truncatingIfNeeded: bits)), 4)
            case UInt8(ascii: "r"): return (.rgba(bits), 4)
            default: return (.midi(bits), 4)
            }
        case UInt8(ascii: "h"), UInt8(ascii: "d"), UInt8(ascii: "t"):
            guard left >= 8 else { return nil }
            let bits = bigEndianUInt64(data, at: offset)
            switch tag {
            case UInt8(ascii: "h"): return (.int64(Int64(bitPattern: bits)), 8)
            case UInt8(ascii: "d"): return (.float64(Double(bitPattern: bits)), 8)
            default: return (.timeTag(bits), 8)
            }
        case UInt8(ascii: "s"), UInt8(ascii: "S"):
            guard left > 0, let end = data[offset...].firstIndex(of: 0) else { return nil }
            let next = (end + 4) & ~3
            guard next <= data.count else { return nil }
            return (.string(UnsafeRawBufferPointer(rebasing: data[offset..<end])), next - offset)
        case UInt8(ascii: "b"):
            guard left >= 4 else { return nil }
            let size = Int(Int32(bitPattern: bigEndianUInt32(data, at: offset)))
            let padded = (size + 3) & ~3
            guard size >= 0, padded <= left - 4 else { return nil }
            return (.blob(UnsafeRawBufferPointer(rebasing: data[(offset + 4)..<(offset + 4 + size)])), 4 + padded)
        case UInt8(ascii: "T"): return (.bool(true), 0)
        case UInt8(ascii: "F"): return (.bool(false), 0)
        case UInt8(ascii: "N"): return (.null, 0)
        case UInt8(ascii: "I"): return (.impulse, 0)
        default: return nil
        }
    }

    @inline(__always)
    static func bigEndianUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always)
    static func bigEndianUInt64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
