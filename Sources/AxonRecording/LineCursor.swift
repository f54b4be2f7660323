#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of a text file, as byte offsets: `start..<end` is its content without `\r\n` or `\n`.
struct TextLine {
    /// 1-based line number.
    var number: Int
    /// Offset of the first byte.
    var start: Int
    /// Offset one past the last content byte (before any `\r` or `\n`).
    var end: Int
    /// Whether a `\n` ended the line (false only for a last line cut short or written without one).
    var isTerminated: Bool
    /// Offset of the next line's first byte.
    var next: Int
}

/// Walks the lines of a byte buffer (LF or CRLF endings; a UTF-8 byte-order mark before the first line is
/// skipped). Finding a line end is a `memchr`, so walking a file costs about one pass over its bytes.
///
/// Threading: a value owned by one thread; the buffer must outlive it.
struct LineCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset: Int
    private(set) var lineNumber: Int

    /// A cursor at the first line.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        self.offset = bytes.starts(with: bom) ? 3 : 0
        self.lineNumber = 0
    }

    /// The next line, or `nil` at the end of the buffer.
    mutating func next() -> TextLine? {
        guard offset < bytes.count, let base = bytes.baseAddress else { return nil }
        let start = offset
        let remaining = bytes.count - start
        var end: Int
        let terminated: Bool
        if let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), remaining) {
            end = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            offset = end + 1
            terminated = true
        } else {
            end = bytes.count
            offset = bytes.count
            terminated = false
        }
        if end > start, base[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        lineNumber += 1
        return TextLine(number: lineNumber, start: start, end: end, isTerminated: terminated, next: offset)
    }

    /// The text of `line`, with invalid UTF-8 replaced (for headers and messages, not for data rows).
    func text(of line: TextLine) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[line.start..<line.end]), as: UTF8.self)
    }

    /// Whether `line` holds only spaces and tabs.
    func isBlank(_ line: TextLine) -> Bool {
        bytes[line.start..<line.end].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// The first line's text (BOM and line ending removed, at most `limit` bytes), for format detection and
    /// error messages; empty for an empty buffer.
    static func firstLine(of bytes: UnsafeBufferPointer<UInt8>, limit: Int = 256) -> String {
        var cursor = LineCursor(bytes)
        guard let line = cursor.next() else { return "" }
        let end = min(line.end, line.start + limit)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[line.start..<end]), as: UTF8.self)
    }
}
