/// What is wrong with a FIF file (Elekta/Neuromag's Functional Imaging File Format, what MNE-Python's `Raw.save`
/// writes), as ``RecordingError/fif(path:problem:)`` reports it: the byte offset of the tag at fault and why.
///
/// Threading: a value type; share freely.
public enum FIFProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not start with a FIF file-id tag (kind 100, type 31, 20 bytes).
    case notFIF
    /// A tag (its 16-byte header, or its `size` data bytes) runs past the end of the file at `offset`: the file was
    /// cut short. `fileSize` is its length.
    case truncated(tagOffset: Int, needed: Int, fileSize: Int)
    /// A tag at `offset` cannot be used (negative size, a `next` pointer outside the file or back to a tag already
    /// read, a value of the wrong type or size, a block end without a start).
    case badTag(offset: Int, kind: Int32, reason: String)
    /// Something a raw recording needs is absent: `FIFFB_MEAS_INFO`, `FIFF_NCHAN`, `FIFF_SFREQ`, a raw data block.
    case missing(String)
    /// `FIFF_NCHAN` says `declared` channels but the measurement info describes `described`.
    case channelCount(declared: Int, described: Int)
    /// A data buffer's type is none of float32 (4), int16 (2), int32 (3), float64 (5), or packed int16 (16).
    case unsupportedBufferType(offset: Int, type: Int32)
    /// A data buffer's size is not a whole number of frames (`channels` × the type's width).
    case bufferSize(offset: Int, size: Int, channels: Int, width: Int)
    /// The raw data block holds no samples.
    case noData

    /// A phrase for people.
    public var description: String {
        switch self {
        case .notFIF:
            return "not a FIF file: it does not start with a file-id tag (kind 100, type 31, size 20)"
        case .truncated(let offset, let needed, let size):
            return "file truncated: the tag at byte \(offset) needs \(needed) bytes up to byte \(offset + needed), the "
                + "file has \(size)"
        case .badTag(let offset, let kind, let reason):
            return "tag \(kind) at byte \(offset): \(reason)"
        case .missing(let what):
            return "no \(what): not a raw recording"
        case .channelCount(let declared, let described):
            return "FIFF_NCHAN says \(declared) channels, the measurement info describes \(described)"
        case .unsupportedBufferType(let offset, let type):
            return "the data buffer at byte \(offset) has type \(type); read are float32 (4), int16 (2), int32 (3), "
                + "float64 (5) and packed int16 (16)"
        case .bufferSize(let offset, let size, let channels, let width):
            return "the data buffer at byte \(offset) has \(size) bytes, not a multiple of \(channels) channels × "
                + "\(width) bytes"
        case .noData:
            return "the raw data block holds no samples"
        }
    }
}
