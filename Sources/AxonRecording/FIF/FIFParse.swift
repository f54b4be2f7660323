import AxonStreams

/// One walk over a FIF file's tags, collecting what ``FIFReader`` keeps. Owned by one thread; `bytes` must outlive it.
struct FIFParse {
    /// A `FIFF_CH_INFO` record.
    struct Channel {
        var kind: Int32
        var range: Float
        var cal: Float
        var unit: Int32
        var name: String
    }

    /// A data buffer found: where its samples are, its type and frames.
    struct Buffer {
        var offset: Int
        var type: Int32
        var frames: Int
    }

    let bytes: FIFBytes
    let keepsCompleteBuffers: Bool
    var channelCount: Int?
    var rate: Double?
    var channels: [Channel] = []
    /// Full names from the channels' `FIFFB_CH_INFO` blocks, one per block in order (`nil`: the block has none).
    var longNames: [String?] = []
    var measurementDate: Double?
    var sawMeasurementInfo = false
    var sawRawData = false
    var firstSample = 0
    var buffers: [Buffer] = []
    /// Skips before a buffer: (index of the buffer after them, samples, or buffers × that buffer's frames).
    var pendingSkip: (samples: Int, buffers: Int) = (0, 0)
    var gaps: [(beforeFrame: Int, missing: Int)] = []
    var annotationOnsets: [Double] = []
    var annotationEnds: [Double] = []
    var annotationTexts: [String] = []
    var annotationOrigin: Double?
    var warnings: [String] = []
    /// What the file says about who was measured and by whom, as metadata (`fif.subject.lastName`,
    /// `fif.experimenter`, `fif.description`).
    var identification: [String: String] = [:]

    init(bytes: FIFBytes, keepsCompleteBuffers: Bool) {
        self.bytes = bytes
        self.keepsCompleteBuffers = keepsCompleteBuffers
    }

    /// Walks every tag from the file id to the last (`next` = −1, or the end of the file).
    mutating func walk() throws(FIFProblem) {
        guard bytes.count >= 36, bytes.int32(0) == FIFTag.Kind.fileID, bytes.int32(4) == FIFTag.DataType.idStruct,
            bytes.int32(8) == 20
        else { throw .notFIF }
        var offset = 0
        var blocks: [Int32] = []
        var jumpedTo = Set<Int>()
        var frames = 0
        while offset < bytes.count {
            let tag: FIFTag
            do {
                tag = try bytes.tag(at: offset)
            } catch {
                guard keepsCompleteBuffers, !buffers.isEmpty, case .truncated(let at, let needed, let size) = error
                else { throw error }
                warnings.append(
                    "file truncated: the tag at byte \(at) needs \(needed) bytes but the file ends at byte \(size); "
                        + "read the \(buffers.count) complete data buffers before it (\(frames) frames)")
                break
            }
            switch tag.kind {
            case FIFTag.Kind.blockStart:
                let kind = try int(tag)
                blocks.append(kind)
                if kind == FIFTag.Block.measurementInfo { sawMeasurementInfo = true }
                if kind == FIFTag.Block.rawData || kind == FIFTag.Block.continuousData { sawRawData = true }
                if kind == FIFTag.Block.channelInfo, blocks.dropLast().last == FIFTag.Block.measurementInfo {
                    longNames.append(nil)
                }
                if kind == FIFTag.Block.reference {
                    warnings.append(
                        "the recording continues in another file (a FIF split, byte \(tag.offset)): only this file "
                            + "was read")
                }
            case FIFTag.Kind.blockEnd:
                guard blocks.popLast() != nil else {
                    throw .badTag(offset: tag.offset, kind: tag.kind, reason: "a block end without a block start")
                }
            default:
                try take(tag, in: blocks.last, frames: &frames)
            }
            if tag.next == -1 { break }
            if tag.next == 0 {
                offset = tag.dataOffset + tag.size
            } else {
                let next = Int(tag.next)
                guard next > 0, next < bytes.count, jumpedTo.insert(next).inserted else {
                    throw .badTag(
                        offset: tag.offset, kind: tag.kind,
                        reason: "next points to byte \(next), outside the file (\(bytes.count) bytes) or back to a "
                            + "tag already read")
                }
                offset = next
            }
        }
    }

    /// One tag inside the block `block`.
    private mutating func take(_ tag: FIFTag, in block: Int32?, frames: inout Int) throws(FIFProblem) {
        switch (block, tag.kind) {
        case (FIFTag.Block.measurementInfo, FIFTag.Kind.channelCount):
            let count = Int(try int(tag))
            guard (1...65_536).contains(count) else {
                throw .badTag(offset: tag.offset, kind: tag.kind, reason: "\(count) channels")
            }
            channelCount = count
        case (FIFTag.Block.measurementInfo, FIFTag.Kind.sampleRate):
            guard tag.type == FIFTag.DataType.float32, tag.size >= 4 else { throw wrongType(tag, "a float32") }
            let value = Double(bytes.float32(tag.dataOffset))
            guard value.isFinite, value > 0 else {
                throw .badTag(offset: tag.offset, kind: tag.kind, reason: "a sampling rate of \(value) Hz")
            }
            rate = value
        case (FIFTag.Block.measurementInfo, FIFTag.Kind.channelInfo):
            guard tag.type == FIFTag.DataType.channelInfo, tag.size >= 96 else {
                throw wrongType(tag, "a 96-byte channel info struct")
            }
            let at = tag.dataOffset
            channels.append(
                Channel(
                    kind: bytes.int32(at + 8), range: bytes.float32(at + 12), cal: bytes.float32(at + 16),
                    unit: bytes.int32(at + 72), name: bytes.text(at + 80, 16)))
        case (FIFTag.Block.measurementInfo, FIFTag.Kind.measurementDate):
            measurementDate = try date(tag)
        case (FIFTag.Block.measurementInfo, FIFTag.Kind.experimenter):
            if let text = value(tag) { identification["fif.experimenter"] = text }
        case (FIFTag.Block.measurementInfo, FIFTag.Kind.comment):
            if let text = value(tag) { identification["fif.description"] = text }
        case (FIFTag.Block.subject, let kind):
            if let name = FIFTag.Kind.subjectFields[kind], let text = value(tag) {
                identification["fif.subject.\(name)"] = text
            }
        case (FIFTag.Block.channelInfo, FIFTag.Kind.channelDACQName):
            guard tag.type == FIFTag.DataType.string else { throw wrongType(tag, "a string") }
            if !longNames.isEmpty { longNames[longNames.count - 1] = bytes.text(tag.dataOffset, tag.size) }
        case (FIFTag.Block.annotations, FIFTag.Kind.annotationOnsets):
            annotationOnsets = try reals(tag)
        case (FIFTag.Block.annotations, FIFTag.Kind.annotationEnds):
            annotationEnds = try reals(tag)
        case (FIFTag.Block.annotations, FIFTag.Kind.comment):
            guard tag.type == FIFTag.DataType.string else { throw wrongType(tag, "a string") }
            let text = bytes.text(tag.dataOffset, tag.size)
            annotationTexts =
                text.isEmpty
                ? []
                : text.split(separator: ":", omittingEmptySubsequences: false).map {
                    $0.replacingOccurrences(of: "{COLON}", with: ":")
                }
        case (FIFTag.Block.annotations, FIFTag.Kind.measurementDate):
            annotationOrigin = try date(tag)
        case (FIFTag.Block.rawData, FIFTag.Kind.firstSample), (FIFTag.Block.continuousData, FIFTag.Kind.firstSample):
            firstSample = Int(try int(tag))
        case (FIFTag.Block.rawData, FIFTag.Kind.dataSkip), (FIFTag.Block.continuousData, FIFTag.Kind.dataSkip):
            pendingSkip.buffers += max(0, Int(try int(tag)))
        case (FIFTag.Block.rawData, FIFTag.Kind.dataSkipSamples),
            (FIFTag.Block.continuousData, FIFTag.Kind.dataSkipSamples):
            pendingSkip.samples += max(0, Int(try int(tag)))
        case (FIFTag.Block.rawData, FIFTag.Kind.dataBuffer), (FIFTag.Block.continuousData, FIFTag.Kind.dataBuffer):
            guard let count = channelCount else { throw .missing("FIFF_NCHAN before the first data buffer") }
            guard let width = Self.width(of: tag.type) else {
                throw .unsupportedBufferType(offset: tag.offset, type: tag.type)
            }
            guard tag.size % (count * width) == 0 else {
                throw .bufferSize(offset: tag.offset, size: tag.size, channels: count, width: width)
            }
            let bufferFrames = tag.size / (count * width)
            // A lying skip count must not overflow: more than 2⁴⁰ samples (years at any rate) is refused.
            let (product, overflow) = pendingSkip.buffers.multipliedReportingOverflow(by: bufferFrames)
            guard !overflow, product <= 1 << 40, pendingSkip.samples <= 1 << 40 else {
                throw .badTag(
                    offset: tag.offset, kind: tag.kind,
                    reason: "the skips before it claim \(pendingSkip.buffers) buffers of \(bufferFrames) frames and "
                        + "\(pendingSkip.samples) samples, beyond any recording")
            }
            let skipped = pendingSkip.samples + product
            pendingSkip = (0, 0)
            if skipped > 0 {
                if buffers.isEmpty {
                    firstSample += skipped  // MNE-Python: an initial skip moves the first sample
                } else {
                    gaps.append((frames, skipped))
                }
            }
            buffers.append(Buffer(offset: tag.dataOffset, type: tag.type, frames: bufferFrames))
            frames += bufferFrames
        default:
            break
        }
    }

    /// A tag's value as text: a string, the first int32, float32 or float64, or a Julian day as `YYYY-MM-DD`; `nil`
    /// for other types or an empty tag.
    private func value(_ tag: FIFTag) -> String? {
        switch tag.type {
        case FIFTag.DataType.string: return bytes.text(tag.dataOffset, tag.size)
        case FIFTag.DataType.int32 where tag.size >= 4: return String(bytes.int32(tag.dataOffset))
        case FIFTag.DataType.float32 where tag.size >= 4: return "\(bytes.float32(tag.dataOffset))"
        case FIFTag.DataType.float64 where tag.size >= 8: return "\(bytes.float64(tag.dataOffset))"
        case FIFTag.DataType.julian where tag.size >= 4:
            // Julian day 2440588 is 1970-01-01.
            let date = CivilDate.date(days: Int(bytes.int32(tag.dataOffset)) - 2_440_588)
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(date.year)-\(two(date.month))-\(two(date.day))"
        default: return nil
        }
    }

    /// Bytes per sample of a buffer type, or `nil` for a type this reader does not read.
    static func width(of type: Int32) -> Int? {
        switch type {
        case FIFTag.DataType.int16, FIFTag.DataType.packedInt16: return 2
        case FIFTag.DataType.int32, FIFTag.DataType.float32: return 4
        case FIFTag.DataType.float64: return 8
        default: return nil
        }
    }

    private func wrongType(_ tag: FIFTag, _ expected: String) -> FIFProblem {
        .badTag(offset: tag.offset, kind: tag.kind, reason: "type \(tag.type), \(tag.size) bytes; expected \(expected)")
    }

    /// The first int32 of a tag.
    private func int(_ tag: FIFTag) throws(FIFProblem) -> Int32 {
        guard tag.type == FIFTag.DataType.int32, tag.size >= 4 else { throw wrongType(tag, "an int32") }
        return bytes.int32(tag.dataOffset)
    }

    /// A date tag: two int32 (seconds, microseconds), one int32, or a float64 (MNE-Python's older annotations).
    private func date(_ tag: FIFTag) throws(FIFProblem) -> Double? {
        if tag.type == FIFTag.DataType.float64, tag.size >= 8 { return bytes.float64(tag.dataOffset) }
        guard tag.type == FIFTag.DataType.int32, tag.size >= 4 else { throw wrongType(tag, "int32 seconds") }
        let seconds = bytes.int32(tag.dataOffset)
        // MNE-Python writes (-1, 0) — DATE_NONE — for "no date".
        if seconds == -1 { return nil }
        let micros = tag.size >= 8 ? bytes.int32(tag.dataOffset + 4) : 0
        return Double(seconds) + Double(micros) / 1e6
    }

    /// An array of float32 or float64.
    private func reals(_ tag: FIFTag) throws(FIFProblem) -> [Double] {
        if tag.type == FIFTag.DataType.float32 {
            return (0..<(tag.size / 4)).map { Double(bytes.float32(tag.dataOffset + 4 * $0)) }
        }
        if tag.type == FIFTag.DataType.float64 {
            return (0..<(tag.size / 8)).map { bytes.float64(tag.dataOffset + 8 * $0) }
        }
        throw wrongType(tag, "float32 or float64 values")
    }
}
