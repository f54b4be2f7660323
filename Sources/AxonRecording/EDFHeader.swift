/// The fixed header of an EDF/EDF+/BDF/BDF+ file, parsed and checked by Axon itself before EDFlib sees the file.
///
/// EDFlib reports most damage as one code (`EDFLIB_FILE_CONTAINS_FORMAT_ERRORS`); this parse names the field and
/// byte, and — because it checks the record count and sizes against the file's length — bounds every later
/// allocation by the file's size, so a header that lies about its sizes cannot make the reader allocate or loop
/// more than the file holds.
///
/// Threading: a value type; share freely.
struct EDFHeader: Sendable, Hashable {
    /// One signal's header fields (annotation signals included).
    struct Signal: Sendable, Hashable {
        /// The 16-byte label field exactly as written (padding included).
        var rawLabel: String
        var label: String
        var transducer: String
        var unit: String
        var physicalMinimum: Double
        var physicalMaximum: Double
        var digitalMinimum: Int
        var digitalMaximum: Int
        var prefilter: String
        var samplesPerRecord: Int
        /// Whether this is an EDF+/BDF+ annotation signal.
        var isAnnotation: Bool
    }

    /// A header field EDF+ requires blank that is not: the transducer or prefiltering field of an annotation
    /// signal. (PhysioNet's EEGMMIDB files write `HP:0Hz LP:0Hz N:0Hz` there; EDFlib 1.23 refuses such files.)
    struct NonBlankAnnotationField: Sendable, Hashable {
        var signal: Int
        var field: String
        var byteOffset: Int
        var width: Int
        var value: String
    }

    /// Most signals EDFlib reads (`EDFLIB_MAXSIGNALS`).
    static let maximumSignals = 640
    /// The largest data record accepted: 10 MiB.
    static let maximumRecordBytes = 10 << 20

    var isBDF: Bool
    var patient: String
    var recordingField: String
    var startDate: String
    var startTime: String
    var headerBytes: Int
    var reserved: String
    var recordCount: Int
    var recordDuration: Double
    var signals: [Signal]
    /// Annotation-signal fields that should be blank but are not (see ``NonBlankAnnotationField``).
    var nonBlankAnnotationFields: [NonBlankAnnotationField] = []
    /// Numeric fields written with leading spaces (see ``DeviantField``).
    var paddedNumericFields: [DeviantField] = []
    /// Text fields holding bytes outside printable ASCII (see ``DeviantField``).
    var nonASCIITextFields: [DeviantField] = []

    /// 2 (EDF) or 3 (BDF).
    var bytesPerSample: Int { isBDF ? 3 : 2 }
    /// Bytes of one data record.
    var recordBytes: Int { signals.reduce(0) { $0 + $1.samplesPerRecord } * bytesPerSample }
    /// Whether the reserved field says EDF+/BDF+.
    var isPlus: Bool { reserved.hasPrefix("EDF+") || reserved.hasPrefix("BDF+") }

    /// Whether the bytes start like an EDF (`0` + 7 spaces) or BDF (`\xFF` + `BIOSEMI`) file.
    static func isSignature(_ bytes: some Collection<UInt8>) -> Bool {
        let prefix = Array(bytes.prefix(8))
        return prefix == Array("0       ".utf8) || prefix == [0xFF] + Array("BIOSEMI".utf8)
    }

    /// The number of signals, from the first 256 bytes, for sizing the second read.
    static func signalCount(_ bytes: [UInt8], path: String) throws(RecordingError) -> Int {
        guard bytes.count >= 256 else {
            throw .edf(path: path, problem: .headerTruncated(expected: 256, actual: bytes.count))
        }
        let text = field(bytes, 252, 4)
        guard let count = Int(text), (1...maximumSignals).contains(count) else {
            throw .edf(
                path: path,
                problem: .headerField(
                    field: "number of signals", signal: nil, byteOffset: 252, value: text,
                    reason: "not an integer 1…\(maximumSignals)"))
        }
        return count
    }

    /// Parses and checks the header in `bytes` (at least 256 × (signals + 1) of them) of a file `fileSize` long.
    ///
    /// - Throws: ``RecordingError/edf(path:problem:)`` naming the field and byte offset at fault, or
    ///   ``EDFProblem/truncated(claimedRecords:completeRecords:expectedBytes:actualBytes:)``.
    init(bytes: [UInt8], fileSize: Int, path: String) throws(RecordingError) {
        let count = try Self.signalCount(bytes, path: path)
        let expected = 256 * (count + 1)
        guard bytes.count >= expected else {
            throw .edf(path: path, problem: .headerTruncated(expected: expected, actual: bytes.count))
        }
        func fail(_ name: String, _ signal: Int?, _ offset: Int, _ width: Int, _ reason: String) -> RecordingError {
            .edf(
                path: path,
                problem: .headerField(
                    field: name, signal: signal, byteOffset: offset, value: Self.field(bytes, offset, width),
                    reason: reason))
        }
        isBDF = bytes[0] == 0xFF
        patient = Self.field(bytes, 8, 80)
        recordingField = Self.field(bytes, 88, 80)
        startDate = Self.field(bytes, 168, 8)
        startTime = Self.field(bytes, 176, 8)
        reserved = Self.field(bytes, 192, 44)
        guard let size = Int(Self.field(bytes, 184, 8)), size == expected else {
            throw fail("number of bytes in header", nil, 184, 8, "not \(expected) (256 + 256 × \(count) signals)")
        }
        headerBytes = size
        let records = Self.field(bytes, 236, 8)
        if records == "-1" { throw .edf(path: path, problem: .recordCountUnknown) }
        guard let recordCount = Int(records), recordCount >= 1 else {
            throw fail("number of data records", nil, 236, 8, "not a positive integer")
        }
        self.recordCount = recordCount
        guard let duration = Double(Self.field(bytes, 244, 8)), duration.isFinite, duration > 0 else {
            throw fail("duration of a data record", nil, 244, 8, "not a positive number of seconds")
        }
        recordDuration = duration

        let digitalLimits = isBDF ? -8_388_608...8_388_607 : -32768...32767
        let plus = reserved.hasPrefix("EDF+") || reserved.hasPrefix("BDF+")
        var signals: [Signal] = []
        signals.reserveCapacity(count)
        var totalSamples = 0
        for i in 0..<count {
            let base = 256
            // Latin-1, as MNE decodes labels (the specification allows ASCII only; writers put µ and accents).
            let rawLabel = Self.latin1(bytes[(base + 16 * i)..<(base + 16 * i + 16)])
            let label = Self.field(bytes, base + 16 * i, 16)
            // As EDFlib: an EDF+ file's annotation signal is `EDF Annotations`, a BDF+ file's `BDF Annotations`; the
            // other label is an ordinary signal's (a plain EDF's old annotation channel converted to BDF+, say).
            let isAnnotation = plus && label == (isBDF ? "BDF Annotations" : "EDF Annotations")
            let physMinAt = base + 104 * count + 8 * i
            let physMaxAt = base + 112 * count + 8 * i
            let digMinAt = base + 120 * count + 8 * i
            let digMaxAt = base + 128 * count + 8 * i
            let samplesAt = base + 216 * count + 8 * i
            guard let physMin = Double(Self.field(bytes, physMinAt, 8)), physMin.isFinite else {
                throw fail("physical minimum", i, physMinAt, 8, "not a number")
            }
            guard let physMax = Double(Self.field(bytes, physMaxAt, 8)), physMax.isFinite else {
                throw fail("physical maximum", i, physMaxAt, 8, "not a number")
            }
            guard physMax != physMin else { throw fail("physical maximum", i, physMaxAt, 8, "equals the minimum") }
            guard let digMin = Int(Self.field(bytes, digMinAt, 8)), digitalLimits.contains(digMin) else {
                throw fail("digital minimum", i, digMinAt, 8, "not an integer in \(digitalLimits)")
            }
            guard let digMax = Int(Self.field(bytes, digMaxAt, 8)), digitalLimits.contains(digMax) else {
                throw fail("digital maximum", i, digMaxAt, 8, "not an integer in \(digitalLimits)")
            }
            guard digMax > digMin else {
                throw fail("digital maximum", i, digMaxAt, 8, "not above the digital minimum \(digMin)")
            }
            guard let samples = Int(Self.field(bytes, samplesAt, 8)), samples >= 1,
                samples <= Self.maximumRecordBytes
            else {
                throw fail("number of samples in each data record", i, samplesAt, 8, "not a positive integer")
            }
            totalSamples += samples
            guard totalSamples * (isBDF ? 3 : 2) <= Self.maximumRecordBytes else {
                throw fail(
                    "number of samples in each data record", i, samplesAt, 8,
                    "makes a data record larger than \(Self.maximumRecordBytes >> 20) MiB")
            }
            signals.append(
                Signal(
                    rawLabel: rawLabel, label: label, transducer: Self.field(bytes, base + 16 * count + 80 * i, 80),
                    unit: Self.field(bytes, base + 96 * count + 8 * i, 8), physicalMinimum: physMin,
                    physicalMaximum: physMax, digitalMinimum: digMin, digitalMaximum: digMax,
                    prefilter: Self.field(bytes, base + 136 * count + 80 * i, 80), samplesPerRecord: samples,
                    isAnnotation: isAnnotation))
        }
        self.signals = signals
        paddedNumericFields = Self.paddedNumericFields(bytes, count: count)
        nonASCIITextFields = Self.nonASCIITextFields(bytes, count: count)
        for (i, signal) in signals.enumerated() where signal.isAnnotation {
            let fields = [("transducer type", 256 + 16 * count + 80 * i), ("prefiltering", 256 + 136 * count + 80 * i)]
            for (name, offset) in fields where !Self.field(bytes, offset, 80).isEmpty {
                nonBlankAnnotationFields.append(
                    NonBlankAnnotationField(
                        signal: i, field: name, byteOffset: offset, width: 80, value: Self.field(bytes, offset, 80)))
            }
        }
        // The data the header promises must be there; this also bounds every allocation by the file's size.
        let recordBytes = totalSamples * (isBDF ? 3 : 2)
        let available = max(0, fileSize - size)
        if recordCount > available / recordBytes {
            throw .edf(
                path: path,
                problem: .truncated(
                    claimedRecords: recordCount, completeRecords: available / recordBytes,
                    expectedBytes: size + recordCount.multipliedReportingOverflow(by: recordBytes).partialValue,
                    actualBytes: fileSize))
        }
        let expectedSize = size + recordCount * recordBytes
        if fileSize > expectedSize {
            throw .edf(
                path: path,
                problem: .extraBytes(records: recordCount, expectedBytes: expectedSize, actualBytes: fileSize))
        }
    }

    /// The header field at `offset`, `width` bytes, as text with surrounding spaces removed (bytes outside
    /// printable ASCII become `?`, as the specification allows only ASCII 32…126).
    static func field(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> String {
        guard offset < bytes.count else { return "" }
        let slice = bytes[offset..<min(bytes.count, offset + width)].map { (32...126).contains($0) ? $0 : 0x3F }
        return trimmed(String(decoding: slice, as: UTF8.self))
    }
}
