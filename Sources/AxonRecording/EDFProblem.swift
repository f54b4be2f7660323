/// What is wrong with an EDF/BDF file, as ``RecordingError/edf(path:problem:)`` reports it: the header field or
/// data record at fault, or the EDFlib error code the file produced.
///
/// Threading: a value type; share freely.
public enum EDFProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file is shorter than its fixed header: `expected` bytes (256 + 256 per signal), `actual` present.
    case headerTruncated(expected: Int, actual: Int)
    /// A header field cannot be used. `field` is its EDF name, `signal` the 0-based signal for per-signal fields,
    /// `byteOffset` where the field starts in the file, `value` the text found there (trimmed).
    case headerField(field: String, signal: Int?, byteOffset: Int, value: String, reason: String)
    /// The number of data records is `-1`: the writer never finished the file (it crashed or is still recording).
    case recordCountUnknown
    /// The data ends before the last record the header promises. `completeRecords` records are whole; the file
    /// has `actualBytes` of the `expectedBytes` the header implies.
    case truncated(claimedRecords: Int, completeRecords: Int, expectedBytes: Int, actualBytes: Int)
    /// The file is longer than its header says (`records` records = `expectedBytes`): bytes after the last record,
    /// or a record count that is too low. EDFlib refuses such files.
    case extraBytes(records: Int, expectedBytes: Int, actualBytes: Int)
    /// The file holds no ordinary signals (only `EDF Annotations`).
    case noSignals
    /// EDFlib refused the file when opening it.
    case library(EDFLibraryError)
    /// EDFlib returned fewer samples than the header promises for a signal (or `-1`).
    case readFailed(signal: Int, label: String, requested: Int, got: Int)
    /// EDFlib could not return the annotation with this index.
    case annotationFailed(index: Int)

    /// A phrase for people.
    public var description: String {
        switch self {
        case .headerTruncated(let expected, let actual):
            return "the header is cut short: \(actual) bytes of the \(expected) the signal count implies"
        case .headerField(let field, let signal, let offset, let value, let reason):
            let which = signal.map { "signal \($0 + 1)'s " } ?? ""
            return "header field \(which)\"\(field)\" (byte \(offset)) is \"\(value)\": \(reason)"
        case .recordCountUnknown:
            return "the number of data records is -1: the writer never closed the file (crash or still recording)"
        case .truncated(let claimed, let complete, let expected, let actual):
            return "file truncated: the header promises \(claimed) data records (\(expected) bytes) but the file has "
                + "\(actual) bytes: \(complete) complete records, record \(complete + 1) is cut short or missing"
        case .extraBytes(let records, let expected, let actual):
            return "the header promises \(records) data records (\(expected) bytes) but the file has \(actual) bytes: "
                + "\(actual - expected) bytes after the last record (a wrong record count or appended data)"
        case .noSignals:
            return "the file has no signals besides annotations"
        case .library(let error):
            return "EDFlib: \(error)"
        case .readFailed(let signal, let label, let requested, let got):
            return "EDFlib returned \(got) of the \(requested) samples of signal \(signal + 1) (\"\(label)\")"
        case .annotationFailed(let index):
            return "EDFlib could not return annotation \(index + 1)"
        }
    }
}

/// EDFlib's `edfopen_file_readonly` error codes (`edflib.h`), one case each.
///
/// Threading: a value type; share freely.
public enum EDFLibraryError: Sendable, Hashable, CustomStringConvertible {
    /// `EDFLIB_MALLOC_ERROR` (-1).
    case mallocError
    /// `EDFLIB_NO_SUCH_FILE_OR_DIRECTORY` (-2).
    case noSuchFileOrDirectory
    /// `EDFLIB_FILE_CONTAINS_FORMAT_ERRORS` (-3).
    case fileContainsFormatErrors
    /// `EDFLIB_MAXFILES_REACHED` (-4).
    case maxFilesReached
    /// `EDFLIB_FILE_READ_ERROR` (-5).
    case fileReadError
    /// `EDFLIB_FILE_ALREADY_OPENED` (-6).
    case fileAlreadyOpened
    /// `EDFLIB_FILETYPE_ERROR` (-7).
    case filetypeError
    /// `EDFLIB_FILE_WRITE_ERROR` (-8).
    case fileWriteError
    /// `EDFLIB_NUMBER_OF_SIGNALS_INVALID` (-9).
    case numberOfSignalsInvalid
    /// `EDFLIB_FILE_IS_DISCONTINUOUS` (-10): EDF+D/BDF+D, which EDFlib does not read.
    case fileIsDiscontinuous
    /// `EDFLIB_INVALID_READ_ANNOTS_VALUE` (-11).
    case invalidReadAnnotationsValue
    /// `EDFLIB_ARCH_ERROR` (-12).
    case archError
    /// A code this list does not know.
    case unknown(code: Int32)

    /// The case for an EDFlib `filetype` error code.
    public init(code: Int32) {
        switch code {
        case -1: self = .mallocError
        case -2: self = .noSuchFileOrDirectory
        case -3: self = .fileContainsFormatErrors
        case -4: self = .maxFilesReached
        case -5: self = .fileReadError
        case -6: self = .fileAlreadyOpened
        case -7: self = .filetypeError
        case -8: self = .fileWriteError
        case -9: self = .numberOfSignalsInvalid
        case -10: self = .fileIsDiscontinuous
        case -11: self = .invalidReadAnnotationsValue
        case -12: self = .archError
        default: self = .unknown(code: code)
        }
    }

    /// A phrase for people.
    public var description: String {
        switch self {
        case .mallocError: return "out of memory (EDFLIB_MALLOC_ERROR)"
        case .noSuchFileOrDirectory: return "no such file or directory (EDFLIB_NO_SUCH_FILE_OR_DIRECTORY)"
        case .fileContainsFormatErrors:
            return "the file does not follow the EDF/BDF specification (EDFLIB_FILE_CONTAINS_FORMAT_ERRORS)"
        case .maxFilesReached: return "too many EDF files open at once (EDFLIB_MAXFILES_REACHED)"
        case .fileReadError: return "a read failed (EDFLIB_FILE_READ_ERROR)"
        case .fileAlreadyOpened: return "the file is already open in EDFlib (EDFLIB_FILE_ALREADY_OPENED)"
        case .filetypeError: return "not an EDF or BDF file (EDFLIB_FILETYPE_ERROR)"
        case .fileWriteError: return "a write failed (EDFLIB_FILE_WRITE_ERROR)"
        case .numberOfSignalsInvalid: return "the number of signals is invalid (EDFLIB_NUMBER_OF_SIGNALS_INVALID)"
        case .fileIsDiscontinuous:
            return "EDF+D/BDF+D (discontinuous) files are not supported (EDFLIB_FILE_IS_DISCONTINUOUS)"
        case .invalidReadAnnotationsValue: return "invalid annotation mode (EDFLIB_INVALID_READ_ANNOTS_VALUE)"
        case .archError: return "unsupported architecture (EDFLIB_ARCH_ERROR)"
        case .unknown(let code): return "error code \(code)"
        }
    }
}
