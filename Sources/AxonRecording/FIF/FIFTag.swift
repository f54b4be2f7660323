/// One tag of a FIF file: a 16-byte big-endian header (kind, type, size, next) and `size` data bytes after it.
///
/// Threading: a value type; share freely.
struct FIFTag: Sendable {
    var offset: Int
    var kind: Int32
    var type: Int32
    var size: Int
    var next: Int32
    /// Where the data starts.
    var dataOffset: Int { offset + 16 }

    /// The FIF constants this reader uses (MNE-Python's `FIFF` names).
    enum Kind {
        static let fileID: Int32 = 100
        static let blockStart: Int32 = 104
        static let blockEnd: Int32 = 105
        static let channelCount: Int32 = 200
        static let sampleRate: Int32 = 201
        static let channelInfo: Int32 = 203
        static let measurementDate: Int32 = 204
        static let comment: Int32 = 206
        static let firstSample: Int32 = 208
        static let dataBuffer: Int32 = 300
        static let dataSkip: Int32 = 301
        static let dataSkipSamples: Int32 = 303
        static let channelDACQName: Int32 = 258
        static let experimenter: Int32 = 212
        /// `FIFF_SUBJ_ID` … `FIFF_SUBJ_HIS_ID`: who was measured.
        static let subjectFields: [Int32: String] = [
            400: "id", 401: "firstName", 402: "middleName", 403: "lastName", 404: "birthday", 405: "sex", 406: "hand",
            407: "weight", 408: "height", 409: "comment", 410: "hisID",
        ]
        static let annotationOnsets: Int32 = 3568
        static let annotationEnds: Int32 = 3569
    }

    /// Block kinds.
    enum Block {
        static let measurement: Int32 = 100
        static let measurementInfo: Int32 = 101
        static let subject: Int32 = 106
        static let rawData: Int32 = 102
        static let continuousData: Int32 = 112
        static let channelInfo: Int32 = 113
        static let reference: Int32 = 118
        static let annotations: Int32 = 3810
    }

    /// Data types.
    enum DataType {
        static let int16: Int32 = 2
        static let int32: Int32 = 3
        static let float32: Int32 = 4
        static let float64: Int32 = 5
        static let julian: Int32 = 6
        static let string: Int32 = 10
        static let packedInt16: Int32 = 16
        static let channelInfo: Int32 = 30
        static let idStruct: Int32 = 31
    }
}

/// Big-endian reads from a FIF file's bytes, every one bounds-checked by its caller's tag.
struct FIFBytes {
    let bytes: UnsafeRawBufferPointer

    var count: Int { bytes.count }

    func int32(_ offset: Int) -> Int32 {
        Int32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    func int16(_ offset: Int) -> Int16 {
        Int16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self))
    }

    func float32(_ offset: Int) -> Float {
        Float(bitPattern: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    func float64(_ offset: Int) -> Double {
        Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    /// Text of `count` bytes from `offset`, up to the first NUL, as UTF-8 (Latin-1 when it is not).
    func text(_ offset: Int, _ count: Int) -> String {
        var end = offset
        while end < offset + count, bytes[end] != 0 { end += 1 }
        let slice = Array(bytes[offset..<end])
        if let text = String(validatingUTF8Bytes: slice) { return text }
        return String(String.UnicodeScalarView(slice.map { Unicode.Scalar($0) }))
    }

    /// The tag at `offset`.
    ///
    /// - Throws: ``FIFProblem/truncated(tagOffset:needed:fileSize:)`` when its header or data runs past the end;
    ///   ``FIFProblem/badTag(offset:kind:reason:)`` for a negative size.
    func tag(at offset: Int) throws(FIFProblem) -> FIFTag {
        guard offset >= 0, offset <= count - 16 else {
            throw .truncated(tagOffset: offset, needed: 16, fileSize: count)
        }
        let kind = int32(offset)
        let size = Int(int32(offset + 8))
        guard size >= 0 else { throw .badTag(offset: offset, kind: kind, reason: "negative size \(size)") }
        guard size <= count - offset - 16 else {
            throw .truncated(tagOffset: offset, needed: 16 + size, fileSize: count)
        }
        return FIFTag(offset: offset, kind: kind, type: int32(offset + 4), size: size, next: int32(offset + 12))
    }
}
