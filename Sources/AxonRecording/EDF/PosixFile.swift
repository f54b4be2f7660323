import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX file calls the writers make, named so that types with their own `open`/`write`/`close` methods can
/// reach them, with every return code turned into an ``EDFWriterError``.
///
/// Threading: stateless functions; a descriptor belongs to one thread at a time.
enum PosixFile {
    /// Creates (or truncates, with `truncate`) a file for writing.
    static func create(_ path: String, truncate: Bool = true) throws(EDFWriterError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0o644)
        guard fd >= 0 else { throw .cannotCreate(path: path, errno: errno) }
        return fd
    }

    /// Writes every byte at the current offset, resuming after short writes (and, through ``SystemCall``, signals).
    static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String, operation: String
    ) throws(EDFWriterError) {
        var written = 0
        while written < bytes.count {
            do {
                written += try SystemCall.retrying("write") {
                    write(fd, bytes.baseAddress! + written, bytes.count - written)
                }
            } catch {
                throw .writeFailed(path: path, operation: operation, errno: error.code)
            }
        }
    }

    /// Writes every byte at `offset`, leaving the file offset alone.
    static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String, operation: String
    ) throws(EDFWriterError) {
        var written = 0
        while written < bytes.count {
            do {
                written += try SystemCall.retrying("pwrite") {
                    pwrite(fd, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
                }
            } catch {
                throw .writeFailed(path: path, operation: operation, errno: error.code)
            }
        }
    }

    /// Truncates the file to `length` bytes and moves the offset there, after a write that failed part way; best
    /// effort, since it runs on the path that reports that write's error.
    static func cutBack(_ fd: Int32, to length: Int) {
        _ = ftruncate(fd, off_t(length))
        _ = lseek(fd, off_t(length), SEEK_SET)
    }

    /// `fsync`.
    static func synchronize(_ fd: Int32, path: String) throws(EDFWriterError) {
        guard fsync(fd) == 0 else { throw .writeFailed(path: path, operation: "fsync", errno: errno) }
    }

    /// Closes a descriptor, reporting a failure (a deferred write error on some file systems).
    static func close(_ fd: Int32, path: String) throws(EDFWriterError) {
        guard closeDescriptor(fd) == 0 else { throw .writeFailed(path: path, operation: "close", errno: errno) }
    }

    /// Closes a descriptor on an error or teardown path, where a second error could not be reported.
    static func discard(_ fd: Int32) { _ = closeDescriptor(fd) }
}

private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
