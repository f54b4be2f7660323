import CDBus

/// Appends ``DBusValue``s to a libdbus message.
///
/// Threading: call on the thread that builds the message; libdbus copies every value into the message.
enum DBusMessageWriter {
    /// Appends every value as an argument of `message`. Returns `false` if libdbus ran out of memory.
    static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        return values.allSatisfy { append($0, to: &iterator) }
    }

    static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let v): return basic(v, CDBUS_TYPE_BYTE, &iterator)
        case .boolean(let v): return basic(UInt32(v ? 1 : 0), CDBUS_TYPE_BOOLEAN, &iterator)
        case .int16(let v): return basic(v, CDBUS_TYPE_INT16, &iterator)
        case .uint16(let v): return basic(v, CDBUS_TYPE_UINT16, &iterator)
        case .int32(let v): return basic(v, CDBUS_TYPE_INT32, &iterator)
        case .uint32(let v): return basic(v, CDBUS_TYPE_UINT32, &iterator)
        case .int64(let v): return basic(v, CDBUS_TYPE_INT64, &iterator)
        case .uint64(let v): return basic(v, CDBUS_TYPE_UINT64, &iterator)
        case .double(let v): return basic(v, CDBUS_TYPE_DOUBLE, &iterator)
        case .unixFD(let v): return basic(v, CDBUS_TYPE_UNIX_FD, &iterator)
        case .string(let s): return string(s, CDBUS_TYPE_STRING, &iterator)
        case .objectPath(let s): return string(s, CDBUS_TYPE_OBJECT_PATH, &iterator)
        case .signature(let s): return string(s, CDBUS_TYPE_SIGNATURE, &iterator)
        case .bytes(let bytes):
            return container(CDBUS_TYPE_ARRAY, "y", &iterator) { inner in
                bytes.withUnsafeBufferPointer { buffer in
                    var pointer = buffer.baseAddress.map { UnsafeRawPointer($0) }
                    if pointer == nil { return true }
                    return dbus_message_iter_append_fixed_array(&inner, CDBUS_TYPE_BYTE, &pointer, Int32(buffer.count)) != 0
                }
            }
        case .array(let elementSignature, let items):
            return container(CDBUS_TYPE_ARRAY, elementSignature, &iterator) { inner in
                items.allSatisfy { append($0, to: &inner) }
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            return container(CDBUS_TYPE_ARRAY, "{" + keySignature + valueSignature + "}", &iterator) { inner in
                entries.allSatisfy { entry in
                    container(CDBUS_TYPE_DICT_ENTRY, nil, &inner) { pair in
                        append(entry.key, to: &pair) && append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let members):
            return container(CDBUS_TYPE_STRUCT, nil, &iterator) { inner in
                members.allSatisfy { append($0, to: &inner) }
            }
        case .variant(let inner):
            return container(CDBUS_TYPE_VARIANT, inner.signature, &iterator) { nested in
                append(inner, to: &nested)
            }
        }
    }

    private static func basic<T>(_ value: T, _ type: Int32, _ iterator: inout DBusMessageIter) -> Bool {
        var copy = value
        return dbus_message_iter_append_basic(&iterator, type, &copy) != 0
    }

    private static func string(_ value: String, _ type: Int32, _ iterator: inout DBusMessageIter) -> Bool {
        value.withCString { pointer in
            var cString: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, type, &cString) != 0
        }
    }

    private static func container(
        _ type: Int32, _ contained: String?, _ iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened: Bool
        if let contained {
            opened = contained.withCString { dbus_message_iter_open_container(&iterator, type, $0, &inner) } != 0
        } else {
            opened = dbus_message_iter_open_container(&iterator, type, nil, &inner) != 0
        }
        guard opened else { return false }
        guard body(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }
}
