// AxonRecording — a user's file is never overwritten without being told to, and never left half-replaced.

import Foundation

/// Why a file could not be claimed or replaced.
///
/// Threading: a plain value, `Sendable`.
public enum OutputFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path exists and replacing it was not asked for.
    case exists(path: String)
    /// The finished file could not be moved over the old one (the old one is untouched; the new one is kept
    /// beside it).
    case replaceFailed(path: String, kept: String, errno: Int32)

    /// One line a person can act on.
    public var description: String {
        switch self {
        case .exists(let path): "\(path) exists; pass --force to replace it"
        case .replaceFailed(let path, let kept, let code):
            "could not replace \(path) (\(String(cString: strerror(code)))); the new file is at \(kept)"
        }
    }
}

/// The rules for files the commands write.
///
/// - ``claim(_:replace:)``: before a recording starts. An existing path is refused unless `replace`; with it, the
///   old file is removed so the recording (EDF+/BDF+ write in place, readable after a crash) starts on a new file.
/// - ``write(to:replace:_:)``: for a file written in one go (a conversion): it is written beside the path under a
///   temporary name and renamed over the path only once complete, so a failure or a crash leaves the old file whole.
///
/// Threading: stateless; call from any thread.
public enum OutputFile {
    /// Refuses an existing `path` unless `replace`; with `replace`, removes it.
    ///
    /// - Throws: ``OutputFileError/exists(path:)``.
    public static func claim(_ path: String, replace: Bool) throws(OutputFileError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard replace else { throw .exists(path: path) }
        unlink(path)
    }

    /// Writes a file through `write(temporaryPath)` and renames it over `path` once `write` returns.
    ///
    /// - Throws: ``OutputFileError/exists(path:)`` before writing anything when `path` exists and `replace` is
    ///   false; `write`'s error (the temporary file is removed, `path` untouched);
    /// ``OutputFileError/replaceFailed(path:kept:errno:)``.
    public static func write<T>(to path: String, replace: Bool, _ write: (String) throws -> T) throws -> T {
        if !replace, FileManager.default.fileExists(atPath: path) { throw OutputFileError.exists(path: path) }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent).\(getpid()).partial")
            .appendingPathExtension(url.pathExtension).path
        let result: T
        do {
            result = try write(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        // rename(2) replaces the destination atomically: readers see the old file or the new one, never a mix.
        guard rename(temporary, path) == 0 else {
            throw OutputFileError.replaceFailed(path: path, kept: temporary, errno: errno)
        }
        return result
    }
}
