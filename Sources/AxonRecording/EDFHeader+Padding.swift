extension EDFHeader {
    /// A numeric header field written with leading spaces (`"  1     "` for the record count), as BioSemi's and
    /// other writers do. The EDF specification left-aligns numbers and EDFlib refuses such a file
    /// (`EDFLIB_FILE_CONTAINS_FORMAT_ERRORS`); MNE-Python and EDFbrowser read it. ``EDFFileReader`` hands EDFlib a
    /// copy with the number left-aligned and says so in a warning.
    struct PaddedNumericField: Sendable, Hashable {
        /// The field's name in the specification ("number of data records").
        var field: String
        /// The signal (0-based) for a per-signal field.
        var signal: Int?
        var byteOffset: Int
        var width: Int
        /// The field as written, spaces included.
        var written: String
        /// The same number left-aligned and padded with spaces to the field's width.
        var leftAligned: [UInt8]
    }

    /// The numeric fields of a header of `count` signals that start with a space but hold a number after it.
    static func paddedNumericFields(_ bytes: [UInt8], count: Int) -> [PaddedNumericField] {
        var fields: [(String, Int?, Int, Int)] = [
            ("number of bytes in header", nil, 184, 8), ("number of data records", nil, 236, 8),
            ("duration of a data record", nil, 244, 8), ("number of signals", nil, 252, 4),
        ]
        let perSignal = [
            ("physical minimum", 104), ("physical maximum", 112), ("digital minimum", 120),
            ("digital maximum", 128), ("number of samples in each data record", 216),
        ]
        for (name, block) in perSignal {
            for signal in 0..<count { fields.append((name, signal, 256 + block * count + 8 * signal, 8)) }
        }
        return fields.compactMap { name, signal, offset, width in
            guard offset + width <= bytes.count, bytes[offset] == 0x20 else { return nil }
            let number = field(bytes, offset, width)
            guard !number.isEmpty, Double(number) != nil else { return nil }
            let written = String(decoding: bytes[offset..<(offset + width)], as: UTF8.self)
            return PaddedNumericField(
                field: name, signal: signal, byteOffset: offset, width: width, written: written,
                leftAligned: Array(number.utf8) + Array(repeating: 0x20, count: width - number.utf8.count))
        }
    }
}
