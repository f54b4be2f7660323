// AxonC — the status codes of axon.h, and the failure every C call reports through them.

import AxonEEG
import AxonRecording
import CAxonABI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed C call: the status it returns and the sentence `axon_last_error()` then gives.
///
/// Threading: a plain value.
struct CallFailure: Error {
    /// One of the header's negative `AXON_ERR_*` codes.
    let status: CInt
    /// What went wrong, for people.
    let message: String

    init(status: CInt, message: String) {
        self.status = status
        self.message = message
    }

    static func invalidArgument(_ message: String) -> CallFailure {
        CallFailure(status: AXON_ERR_INVALID_ARGUMENT, message: message)
    }

    static func bufferTooSmall(_ message: String) -> CallFailure {
        CallFailure(status: AXON_ERR_BUFFER_TOO_SMALL, message: message)
    }

    /// A required pointer argument that was NULL.
    static func null(_ parameter: String, in function: String) -> CallFailure {
        .invalidArgument("\(function): \(parameter) is NULL")
    }

    /// A reader's error: a missing file is not found, one that cannot be read an I/O error, the rest format errors.
    init(_ error: RecordingError, in function: String) {
        let message = "\(function): \(error.description)"
        switch error {
        case .cannotOpen(_, let code) where code == ENOENT || code == ENOTDIR:
            self.init(status: AXON_ERR_NOT_FOUND, message: message)
        case .cannotOpen, .readFailed:
            self.init(status: AXON_ERR_IO, message: message)
        case .unknownChannel, .ambiguousChannel, .invalidSegment:
            self.init(status: AXON_ERR_INVALID_ARGUMENT, message: message)
        case .unsupportedFormat, .missingHeader, .malformedHeader, .undecodableJSON, .malformedRow, .edf, .brainVision,
            .needsPath, .fif:
            self.init(status: AXON_ERR_FORMAT, message: message)
        }
    }

    /// The writer's: a file that cannot be created or written is an I/O error, a closed writer a closed handle, the
    /// rest are about what it was given.
    init(_ error: EDFWriterError, in function: String) {
        let message = "\(function): \(error.description)"
        switch error {
        case .cannotCreate, .writeFailed: self.init(status: AXON_ERR_IO, message: message)
        case .closed: self.init(status: AXON_ERR_CLOSED_HANDLE, message: message)
        case .unsupportedStream, .notEncodable, .nonIntegerSamplesPerRecord, .invalidRange, .invalidOption:
            self.init(status: AXON_ERR_INVALID_ARGUMENT, message: message)
        }
    }

    /// The engine's errors are all about what it was given: a configuration or a stream that cannot work.
    init(_ error: EEGError, in function: String) {
        self.init(status: AXON_ERR_INVALID_ARGUMENT, message: "\(function): \(error.description)")
    }
}

/// Runs the body of a C call: its status, or the failure's status with its message stored for `axon_last_error()`.
@inline(__always)
func reportingFailure(_ body: () throws(CallFailure) -> Void) -> CInt {
    do {
        try body()
        return AXON_OK
    } catch {
        LastError.set(error.message)
        return error.status
    }
}

/// The name of a status code (`axon.h`). Any thread.
@c @implementation
public func axon_status_name(_ status: CInt) -> UnsafePointer<CChar>! {
    let name: StaticString =
        switch status {
        case AXON_OK: "AXON_OK"
        case AXON_ERR_INVALID_ARGUMENT: "AXON_ERR_INVALID_ARGUMENT"
        case AXON_ERR_NOT_FOUND: "AXON_ERR_NOT_FOUND"
        case AXON_ERR_IO: "AXON_ERR_IO"
        case AXON_ERR_FORMAT: "AXON_ERR_FORMAT"
        case AXON_ERR_BUFFER_TOO_SMALL: "AXON_ERR_BUFFER_TOO_SMALL"
        case AXON_ERR_CLOSED_HANDLE: "AXON_ERR_CLOSED_HANDLE"
        case AXON_ERR_ENDED: "AXON_ERR_ENDED"
        case AXON_ERR_DEVICE: "AXON_ERR_DEVICE"
        default: "unknown status"
        }
    return staticCString(name)
}

/// A static string's bytes as a C string: literals are NUL-terminated and live as long as the program.
func staticCString(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}
