/// A D-Bus value, as read from or written to a message: the basic types BlueZ uses, arrays (byte arrays kept
/// as `[UInt8]`), dictionaries, structs and variants.
///
/// Containers carry their element signatures so that empty arrays and dictionaries can still be written.
/// Threading: a value type; share freely.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A Unix file descriptor received in a message (already duplicated for us; the receiver closes it).
    case unixFD(Int32)
    /// `ay`, kept compact.
    case bytes([UInt8])
    /// An array of any other element type.
    case array(elementSignature: String, [DBusValue])
    /// `a{..}`: entries in message order.
    case dictionary(keySignature: String, valueSignature: String, [DictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// One `{key, value}` entry of a dictionary.
    public struct DictionaryEntry: Sendable, Hashable {
        public var key: DBusValue
        public var value: DBusValue
        public init(key: DBusValue, value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

// MARK: - Building

extension DBusValue {
    /// `as`: an array of strings.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map { .string($0) })
    }

    /// `a{sv}`: the options and properties dictionary BlueZ uses everywhere.
    public static func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            entries.map { DictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }
}

// MARK: - Reading

extension DBusValue {
    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// A string or object path.
    public var stringValue: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    public var boolValue: Bool? {
        if case .boolean(let b) = unwrapped { return b }
        return nil
    }

    /// Any integer type, widened.
    public var integerValue: Int? {
        switch unwrapped {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        default: nil
        }
    }

    /// `ay` as bytes.
    public var bytesValue: [UInt8]? {
        switch unwrapped {
        case .bytes(let b): b
        case .array("y", let items): items.compactMap { if case .byte(let b) = $0 { b } else { nil } }
        default: nil
        }
    }

    /// The elements of an array (an `ay` gives `.byte` elements).
    public var arrayValue: [DBusValue]? {
        switch unwrapped {
        case .array(_, let items): items
        case .bytes(let b): b.map { .byte($0) }
        default: nil
        }
    }

    /// `as` as strings.
    public var stringArrayValue: [String]? {
        arrayValue?.compactMap(\.stringValue)
    }

    /// The entries of a dictionary.
    public var dictionaryEntries: [DictionaryEntry]? {
        if case .dictionary(_, _, let entries) = unwrapped { return entries }
        return nil
    }

    /// A dictionary with string keys (`a{sv}`, `a{sa{sv}}`), keyed by the string; variants are kept.
    public var stringKeyedDictionary: [String: DBusValue]? {
        guard let entries = dictionaryEntries else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            if let key = entry.key.stringValue { result[key] = entry.value }
        }
        return result
    }
}
