import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What went wrong writing an EDF+/BDF+ or CSV file. ``description`` says what and where.
///
/// Equality and hashing compare ``description``: ``notEncodable(_:cause:)`` keeps the encoder's error as a value.
///
/// Threading: a value type; share freely.
public enum EDFWriterError: Error, Sendable, EquatableByDescription {
    /// The file could not be created (`errno`: `EACCES`, `ENOENT` for a missing folder, …).
    case cannotCreate(path: String, errno: Int32)
    /// A write, seek or sync failed (`ENOSPC` disk full, `EIO`, …); what was flushed before it stays readable.
    case writeFailed(path: String, operation: String, errno: Int32)
    /// The stream cannot be written as EDF: irregular, no channels, more than the format's signals.
    case unsupportedStream(reason: String)
    /// What was to be written as JSON (`the descriptor`, `an event payload`) cannot be; `cause` is the encoder's
    /// error. Nothing of it was written.
    case notEncodable(String, cause: any Error)
    /// The nominal rate × record duration is not a whole number of samples (EDF needs one per record).
    case nonIntegerSamplesPerRecord(rate: Double, recordDuration: Double)
    /// A channel's physical range is empty, not finite, or does not fit the header's 8 characters.
    case invalidRange(channel: String, range: String)
    /// An option is out of its documented bounds.
    case invalidOption(reason: String)
    /// The writer was used after `close()`.
    case closed(path: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let code):
            return "cannot create \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .writeFailed(let path, let operation, let code):
            return "\(operation) failed on \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .unsupportedStream(let reason):
            return "cannot write this stream as EDF/BDF: \(reason)"
        case .notEncodable(let what, let cause):
            return "\(what) cannot be written as JSON: \(cause)"
        case .nonIntegerSamplesPerRecord(let rate, let duration):
            return "a data record of \(duration) s at \(rate) Hz is not a whole number of samples; "
                + "choose a record duration with rate × duration an integer"
        case .invalidRange(let channel, let range):
            return "channel \(channel): physical range \(range) is empty, not finite or too wide for EDF's "
                + "8-character header fields"
        case .invalidOption(let reason):
            return "invalid option: \(reason)"
        case .closed(let path):
            return "\(path) is already closed"
        }
    }
}
