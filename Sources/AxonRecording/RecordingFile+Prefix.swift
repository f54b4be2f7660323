#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RecordingFile {
    /// At most `count` bytes from the start of the file, and the file's size, without reading the rest.
    ///
    /// - Throws: ``RecordingError/cannotOpen(path:errno:)`` or ``RecordingError/readFailed(path:errno:)``.
    /// - Complexity: O(count).
    static func readPrefix(path: String, count: Int) throws(RecordingError) -> (bytes: [UInt8], fileSize: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        defer {
            // A read-only descriptor has nothing to flush; a failing close cannot lose data here.
            _ = close(fd)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .readFailed(path: path, errno: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .readFailed(path: path, errno: EISDIR) }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, errno: errno)
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return (bytes, max(Int(info.st_size), filled))
    }

    /// Writes `bytes` to a new temporary file and returns its path (for libraries that only open paths).
    ///
    /// - Throws: ``RecordingError/cannotOpen(path:errno:)`` / ``RecordingError/readFailed(path:errno:)`` with the
    ///   template path when the file cannot be created or written.
    static func writeTemporary(_ bytes: [UInt8], suffix: String) throws(RecordingError) -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/axon-XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        var written = 0
        while written < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if wrote < 0 {
                if errno == EINTR { continue }
                let code = errno
                _ = close(fd)
                _ = unlink(path)
                throw .readFailed(path: path, errno: code)
            }
            written += wrote
        }
        guard close(fd) == 0 else {
            let code = errno
            _ = unlink(path)
            throw .readFailed(path: path, errno: code)
        }
        return path
    }
}
