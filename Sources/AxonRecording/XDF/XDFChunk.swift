import AxonStreams

/// The XDF 1.0 container's building blocks: chunk tags, variable-length integers, value formats and the stream
/// header XML. An XDF file is the magic `XDF:` followed by chunks, each `[NumLengthBytes][Length][Tag][Content]`
/// with `Length` counting the 2-byte tag and the content, all little-endian.
///
/// Threading: stateless; any thread.
public enum XDFChunk {
    /// The chunk tags of XDF 1.0.
    public enum Tag: UInt16, Sendable, Hashable {
        /// The file header (XML).
        case fileHeader = 1
        /// A stream's header: stream id, then XML.
        case streamHeader = 2
        /// Samples of one stream.
        case samples = 3
        /// A clock offset measurement of one stream: collection time and offset value (doubles).
        case clockOffset = 4
        /// A boundary: a 16-byte signature a reader of a damaged file can scan forward to.
        case boundary = 5
        /// A stream's footer: stream id, then XML.
        case streamFooter = 6
    }

    /// The boundary chunk's content.
    public static let boundarySignature: [UInt8] = [
        0x43, 0xA5, 0x46, 0xDC, 0xCB, 0xF5, 0x41, 0x0F, 0xB3, 0x0E, 0xD5, 0x46, 0x73, 0x83, 0xCB, 0xE4,
    ]

    /// The file's first four bytes.
    public static let magic: [UInt8] = Array("XDF:".utf8)

    /// Appends a whole chunk (header, tag, content) to `bytes`.
    static func append(tag: Tag, content: ArraySlice<UInt8>, to bytes: inout [UInt8]) {
        appendVariableLength(UInt64(content.count + 2), to: &bytes)
        appendLittleEndian(tag.rawValue, to: &bytes)
        bytes.append(contentsOf: content)
    }

    /// `[NumBytes][Value]` with 1, 4 or 8 value bytes.
    static func appendVariableLength(_ value: UInt64, to bytes: inout [UInt8]) {
        if value <= 0xFF {
            bytes.append(1)
            bytes.append(UInt8(value))
        } else if value <= 0xFFFF_FFFF {
            bytes.append(4)
            appendLittleEndian(UInt32(value), to: &bytes)
        } else {
            bytes.append(8)
            appendLittleEndian(value, to: &bytes)
        }
    }

    static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func appendDouble(_ value: Double, to bytes: inout [UInt8]) {
        appendLittleEndian(value.bitPattern, to: &bytes)
    }

    /// Text with the five XML special characters escaped.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}

/// How an XDF stream stores its values (the `channel_format` of its header).
///
/// Threading: a value type; share freely.
public enum XDFChannelFormat: String, Sendable, Hashable, CaseIterable {
    /// 32-bit float.
    case float32
    /// 64-bit float.
    case double64
    /// 8-bit integer.
    case int8
    /// 16-bit integer.
    case int16
    /// 32-bit integer.
    case int32
    /// 64-bit integer.
    case int64
    /// Text.
    case string

    /// Bytes per value (0 for text).
    public var size: Int {
        switch self {
        case .float32, .int32: return 4
        case .double64, .int64: return 8
        case .int8: return 1
        case .int16: return 2
        case .string: return 0
        }
    }

    /// The format a stream of this Axon format is stored in: Axon's values are physical (µV, not ADC counts), so
    /// 16- and 24-bit devices are kept as float32 and wider ones as double64; events and markers as text.
    public init(_ format: SampleFormat) {
        switch format {
        case .float32, .int16, .int24: self = .float32
        case .float64, .int32, .int64: self = .double64
        case .string, .event: self = .string
        }
    }
}
