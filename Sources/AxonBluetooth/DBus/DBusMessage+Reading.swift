import CDBus

/// Reads a libdbus message's arguments into ``DBusValue``s.
///
/// Threading: call on the thread that owns the message (the connection's owner thread); the results are values.
enum DBusMessageReader {
    /// Every argument of `message`, in order.
    static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            guard let value = read(&iterator) else { break }
            values.append(value)
        } while dbus_message_iter_next(&iterator) != 0
        return values
    }

    /// The value under the iterator, or `nil` at the end or for a type Axon does not use.
    static func read(_ iterator: inout DBusMessageIter) -> DBusValue? {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iterator, UInt8.self))
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(&iterator, UInt32.self) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iterator, Int16.self))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iterator, UInt16.self))
        case CDBUS_TYPE_INT32: return .int32(basic(&iterator, Int32.self))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iterator, UInt32.self))
        case CDBUS_TYPE_INT64: return .int64(basic(&iterator, Int64.self))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iterator, UInt64.self))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iterator, Double.self))
        case CDBUS_TYPE_UNIX_FD: return .unixFD(basic(&iterator, Int32.self))
        case CDBUS_TYPE_STRING: return .string(string(&iterator))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(string(&iterator))
        case CDBUS_TYPE_SIGNATURE: return .signature(string(&iterator))
        case CDBUS_TYPE_VARIANT:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return read(&inner).map { .variant($0) }
        case CDBUS_TYPE_STRUCT:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .structure(elements(&inner))
        case CDBUS_TYPE_ARRAY:
            return array(&iterator)
        default:
            return nil
        }
    }

    /// The bytes of an `ay` under the iterator (positioned on the array), or `nil` for any other type.
    /// The fast path for notification values: one copy, no intermediate values.
    static func byteArray(_ iterator: inout DBusMessageIter) -> [UInt8]? {
        guard dbus_message_iter_get_arg_type(&iterator) == CDBUS_TYPE_ARRAY,
            dbus_message_iter_get_element_type(&iterator) == CDBUS_TYPE_BYTE
        else { return nil }
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        var pointer: UnsafeMutableRawPointer?
        var count: Int32 = 0
        // Valid only while the message lives: copied at once.
        dbus_message_iter_get_fixed_array(&inner, &pointer, &count)
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: Int(count)))
    }

    private static func basic<T>(_ iterator: inout DBusMessageIter, _: T.Type) -> T {
        // Every basic type is read through an 8-byte DBusBasicValue-sized slot.
        var storage: UInt64 = 0
        dbus_message_iter_get_basic(&iterator, &storage)
        return withUnsafeBytes(of: &storage) { $0.load(as: T.self) }
    }

    private static func string(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func elements(_ iterator: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != CDBUS_TYPE_INVALID {
            if let value = read(&iterator) { values.append(value) }
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func array(_ iterator: inout DBusMessageIter) -> DBusValue {
        if let bytes = byteArray(&iterator) { return .bytes(bytes) }
        let signature = dbus_message_iter_get_signature(&iterator).map { pointer -> String in
            defer { dbus_free(pointer) }
            return String(cString: pointer)
        } ?? "av"
        let elementSignature = String(signature.dropFirst())
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        guard dbus_message_iter_get_element_type(&iterator) == CDBUS_TYPE_DICT_ENTRY else {
            return .array(elementSignature: elementSignature, elements(&inner))
        }
        // "{kv…}": the key is one basic type code; the value is the rest.
        let body = elementSignature.dropFirst().dropLast()
        let keySignature = String(body.prefix(1))
        let valueSignature = String(body.dropFirst())
        var entries: [DBusValue.DictionaryEntry] = []
        while dbus_message_iter_get_arg_type(&inner) == CDBUS_TYPE_DICT_ENTRY {
            var entry = DBusMessageIter()
            dbus_message_iter_recurse(&inner, &entry)
            if let key = read(&entry), dbus_message_iter_next(&entry) != 0, let value = read(&entry) {
                entries.append(.init(key: key, value: value))
            }
            dbus_message_iter_next(&inner)
        }
        return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
    }
}
