extension EDFHeader {
    /// A header field written in a way real writers use but the EDF specification does not allow, so EDFlib
    /// refuses the file (`EDFLIB_FILE_CONTAINS_FORMAT_ERRORS`) while MNE-Python and EDFbrowser read it.
    /// ``EDFFileReader`` hands EDFlib a copy with ``replacement`` in the field and says so in a warning.
    ///
    /// - Numbers padded with leading spaces (`"  1     "` for the record count, as BioSemi's writer pads them):
    ///   the replacement is the number left-aligned.
    /// - Text with bytes outside printable ASCII 32…126 (a Latin-1 `µV` or accent, NULs after the reserved
    ///   field's text): the replacement has `?` for each such byte; labels and units are then taken from
    ///   ``written``, decoded as Latin-1 as MNE decodes them.
    struct DeviantField: Sendable, Hashable {
        /// The field's name in the specification ("number of data records", "label").
        var field: String
        /// The signal (0-based) for a per-signal field.
        var signal: Int?
        var byteOffset: Int
        var width: Int
        /// The field as written, spaces included, decoded as Latin-1 (one character per byte).
        var written: String
        /// What EDFlib's copy holds instead: `width` bytes.
        var replacement: [UInt8]
    }

    /// The numeric fields of a header of `count` signals that start with a space but hold a number after it.
    static func paddedNumericFields(_ bytes: [UInt8], count: Int) -> [DeviantField] {
        let fields = layout(
            [
                ("number of bytes in header", 184, 8), ("number of data records", 236, 8),
                ("duration of a data record", 244, 8), ("number of signals", 252, 4),
            ],
            perSignal: [
                ("physical minimum", 104, 8), ("physical maximum", 112, 8), ("digital minimum", 120, 8),
                ("digital maximum", 128, 8), ("number of samples in each data record", 216, 8),
            ],
            count: count, bytes: bytes)
        return fields.compactMap { name, signal, offset, width in
            guard bytes[offset] == 0x20 else { return nil }
            let number = field(bytes, offset, width)
            guard !number.isEmpty, Double(number) != nil else { return nil }
            return DeviantField(
                field: name, signal: signal, byteOffset: offset, width: width,
                written: latin1(bytes[offset..<(offset + width)]),
                replacement: Array(number.utf8) + Array(repeating: 0x20, count: width - number.utf8.count))
        }
    }

    /// The text fields of a header of `count` signals that hold a byte outside printable ASCII.
    static func nonASCIITextFields(_ bytes: [UInt8], count: Int) -> [DeviantField] {
        let fields = layout(
            [("patient identification", 8, 80), ("recording identification", 88, 80), ("reserved", 192, 44)],
            perSignal: [
                ("label", 0, 16), ("transducer type", 16, 80), ("physical dimension", 96, 8),
                ("prefiltering", 136, 80), ("reserved", 224, 32),
            ],
            count: count, bytes: bytes)
        return fields.compactMap { name, signal, offset, width in
            let field = bytes[offset..<(offset + width)]
            guard field.contains(where: { !(32...126).contains($0) }) else { return nil }
            return DeviantField(
                field: name, signal: signal, byteOffset: offset, width: width, written: latin1(field),
                replacement: field.map { (32...126).contains($0) ? $0 : 0x3F })
        }
    }

    /// Bytes as Latin-1 text: each byte the character of that code point.
    static func latin1(_ bytes: some Sequence<UInt8>) -> String {
        String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    /// (name, signal, offset, width) of the fields at fixed offsets and of every signal's (offset within the
    /// signal block: 256 + block × signals + width × signal), those that lie inside `bytes`.
    private static func layout(
        _ fixed: [(String, Int, Int)], perSignal: [(String, Int, Int)], count: Int, bytes: [UInt8]
    ) -> [(String, Int?, Int, Int)] {
        var fields: [(String, Int?, Int, Int)] = fixed.map { ($0.0, nil, $0.1, $0.2) }
        for (name, block, width) in perSignal {
            for signal in 0..<count { fields.append((name, signal, 256 + block * count + width * signal, width)) }
        }
        return fields.filter { $0.2 + $0.3 <= bytes.count }
    }
}
