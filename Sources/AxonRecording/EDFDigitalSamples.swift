/// Reads one signal's digital samples straight from an EDF/BDF file's data records, as written.
///
/// EDFlib clips every sample beyond the header's digital range to its limits, on its digital read as on its
/// physical one; files in use hold such samples (a writer that declared 0…100 and wrote −206…50), and MNE-Python
/// and EDFbrowser return them. So ``EDFFileReader`` takes the samples from the bytes itself and scales them;
/// EDFlib still reads the header and the annotations.
///
/// Threading: a value over immutable bytes; share freely.
struct EDFDigitalSamples {
    /// The file's bytes: the header, then `records` whole data records (more bytes after them are ignored).
    let bytes: [UInt8]
    let header: EDFHeader
    /// Whole data records to read.
    let records: Int

    /// Byte offset of each signal's samples within a data record, in header order (annotation signals included).
    private let signalOffsets: [Int]

    /// Reads from `bytes` laid out as `header` describes; `records` must fit in `bytes` (the caller has checked the
    /// file's size against the header).
    init(bytes: [UInt8], header: EDFHeader, records: Int) {
        precondition(header.headerBytes + records * header.recordBytes <= bytes.count, "records beyond the bytes")
        self.bytes = bytes
        self.header = header
        self.records = records
        var offsets: [Int] = []
        var offset = 0
        for signal in header.signals {
            offsets.append(offset)
            offset += signal.samplesPerRecord * header.bytesPerSample
        }
        signalOffsets = offsets
    }

    /// The samples of header signal `signal` (its index among all signals, annotation signals included), in
    /// order: little-endian two's complement, 16-bit (EDF) or 24-bit (BDF), sign-extended.
    /// - Complexity: O(records × samples per record).
    func samples(ofSignal signal: Int) -> [Int32] {
        let perRecord = header.signals[signal].samplesPerRecord
        let width = header.bytesPerSample
        let recordBytes = header.recordBytes
        let start = header.headerBytes + signalOffsets[signal]
        return [Int32](unsafeUninitializedCapacity: records * perRecord) { out, count in
            bytes.withUnsafeBufferPointer { file in
                var index = 0
                for record in 0..<records {
                    var at = start + record * recordBytes
                    for _ in 0..<perRecord {
                        let low = UInt32(file[at]) | UInt32(file[at + 1]) << 8
                        out[index] =
                            width == 3
                            ? Int32(bitPattern: (low | UInt32(file[at + 2]) << 16) << 8) >> 8
                            : Int32(Int16(bitPattern: UInt16(low)))
                        at += width
                        index += 1
                    }
                }
            }
            count = records * perRecord
        }
    }
}
