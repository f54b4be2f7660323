import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads with POSIX calls, so a failure carries its `errno`.
///
/// Threading: stateless; any thread.
enum RecordingFile {
    /// The file's bytes.
    ///
    /// - Throws: ``RecordingError/cannotOpen(path:errno:)`` or ``RecordingError/readFailed(path:errno:)``.
    /// - Complexity: O(file size); one allocation of the file's size (plus growth if the file grows meanwhile).
    static func readAll(path: String) throws(RecordingError) -> [UInt8] {
        try read(path: path, limit: nil).bytes
    }

    /// At most `count` bytes from the start of the file, and the file's size, without reading the rest.
    ///
    /// - Throws: ``RecordingError/cannotOpen(path:errno:)`` or ``RecordingError/readFailed(path:errno:)``.
    /// - Complexity: O(count).
    static func readPrefix(path: String, count: Int) throws(RecordingError) -> (bytes: [UInt8], fileSize: Int) {
        try read(path: path, limit: max(0, count))
    }

    /// Reads the file up to `limit` bytes (`nil`: all of it, growing past the size `fstat` gave if the file grows
    /// meanwhile), resuming after short reads (and, through `SystemCall`, signals); returns the bytes and the file's
    /// size.
    private static func read(path: String, limit: Int?) throws(RecordingError) -> (bytes: [UInt8], fileSize: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        defer {
            // A read-only descriptor has nothing to flush; a failing close cannot lose data here.
            _ = close(fd)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .readFailed(path: path, errno: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .readFailed(path: path, errno: EISDIR) }
        var bytes = [UInt8](repeating: 0, count: limit ?? (max(Int(info.st_size), 0) + 1))
        var filled = 0
        while limit == nil || filled < bytes.count {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, filled))) }
            let got: Int
            do {
                got = try SystemCall.retrying("read") {
                    bytes.withUnsafeMutableBytes { buffer in
                        systemRead(fd, buffer.baseAddress! + filled, buffer.count - filled)
                    }
                }
            } catch {
                throw .readFailed(path: path, errno: error.code)
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return (bytes, max(Int(info.st_size), filled))
    }

    /// The last path component (the file name), for descriptors and messages.
    static func fileName(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}

/// POSIX `read`, named apart from ``RecordingFile``'s own `read(path:limit:)`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
