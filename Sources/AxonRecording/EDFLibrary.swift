import CEDFlib
import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one door to EDFlib in this module.
///
/// Threading: EDFlib (1.23) keeps its open files in static arrays with no lock, so two threads opening or closing
/// files at once corrupt it. ``withLock(_:)`` serialises every EDFlib call in the process that goes through
/// AxonRecording; code that calls EDFlib must do so inside it.
enum EDFLibrary {
    private static let lock = ThreadLocked<Void>(())

    /// Runs `body` while holding the process-wide EDFlib lock.
    static func withLock<T: Sendable, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.withLock { (_) throws(E) -> T in try body() }
    }

    /// The first `count` entries of the header's `signalparam` array (ordinary signals only).
    static func signalParameters(_ header: UnsafeMutablePointer<edf_hdr_struct>, count: Int) -> [edf_param_struct] {
        let offset = MemoryLayout<edf_hdr_struct>.offset(of: \edf_hdr_struct.signalparam)!
        let first = (UnsafeMutableRawPointer(header) + offset).assumingMemoryBound(to: edf_param_struct.self)
        return Array(UnsafeBufferPointer(start: first, count: min(count, Int(EDFLIB_MAXSIGNALS))))
    }

    /// A NUL-terminated C `char[N]` field (imported as a tuple) as a string; invalid UTF-8 is replaced.
    static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The file's start in Unix seconds: its date and time (taken as UTC) plus the EDF+ sub-second offset.
    static func startTime(_ header: edf_hdr_struct) -> Double {
        var parts = tm()
        parts.tm_year = header.startdate_year - 1900
        parts.tm_mon = header.startdate_month - 1
        parts.tm_mday = header.startdate_day
        parts.tm_hour = header.starttime_hour
        parts.tm_min = header.starttime_minute
        parts.tm_sec = header.starttime_second
        let seconds = timegm(&parts)
        return Double(seconds) + Double(header.starttime_subsecond) / Double(EDFLIB_TIME_DIMENSION)
    }

    /// "EDF", "EDF+", "BDF" or "BDF+" for an EDFlib file type.
    static func fileTypeName(_ type: Int32) -> String {
        switch type {
        case EDFLIB_FILETYPE_EDF: return "EDF"
        case EDFLIB_FILETYPE_EDFPLUS: return "EDF+"
        case EDFLIB_FILETYPE_BDF: return "BDF"
        case EDFLIB_FILETYPE_BDFPLUS: return "BDF+"
        default: return "EDF?"
        }
    }
}
