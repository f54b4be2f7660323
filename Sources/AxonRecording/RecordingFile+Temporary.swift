import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RecordingFile {
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
            do {
                written += try SystemCall.retrying("write") {
                    bytes.withUnsafeBytes { buffer in write(fd, buffer.baseAddress! + written, buffer.count - written) }
                }
            } catch {
                _ = close(fd)
                _ = unlink(path)
                throw .readFailed(path: path, errno: error.code)
            }
        }
        guard close(fd) == 0 else {
            let code = errno
            _ = unlink(path)
            throw .readFailed(path: path, errno: code)
        }
        return path
    }
}
