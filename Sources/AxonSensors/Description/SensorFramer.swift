// AxonSensors — cutting a byte stream (a serial line) into the packets a layout decodes.

import AxonMemory

/// Cuts a byte stream into packets: lines ended by LF (a CR before it dropped), or binary packets of a fixed length
/// that start with sync bytes. Bytes arrive in whatever splits the link read them in; a packet split across reads
/// is put back together.
///
/// Threading: single owner (the thread reading the link); allocates nothing after init.
final class SensorFramer {
    private let framing: SerialFraming
    private let buffer: OwnedBuffer<UInt8>
    private let sync: OwnedBuffer<UInt8>
    private let packetLength: Int
    private var filled = 0
    /// Whether the bytes up to the next line end belong to a line too long to keep.
    private var discardingLine = false
    /// Bytes skipped while looking for the sync bytes.
    private(set) var skippedBytes = 0

    init(_ framing: SerialFraming) {
        self.framing = framing
        switch framing {
        case .lines:
            buffer = OwnedBuffer(repeating: 0, count: SensorPacketDecoder.maximumLineLength)
            sync = OwnedBuffer(repeating: 0, count: 0)
            packetLength = 0
        case .sync(let bytes, let length):
            buffer = OwnedBuffer(repeating: 0, count: length)
            sync = OwnedBuffer(copying: bytes)
            packetLength = length
        }
    }

    /// Feeds `bytes`, calling `packet` for each whole packet (valid only during the call; blank lines are skipped) and
    /// `tooLong` for each line that did not fit the buffer.
    func feed(
        _ bytes: UnsafeRawBufferPointer, packet: (UnsafeRawBufferPointer) -> Void, tooLong: () -> Void
    ) {
        switch framing {
        case .lines: feedLines(bytes, packet: packet, tooLong: tooLong)
        case .sync: feedSynced(bytes, packet: packet)
        }
    }

    private func feedLines(
        _ bytes: UnsafeRawBufferPointer, packet: (UnsafeRawBufferPointer) -> Void, tooLong: () -> Void
    ) {
        for byte in bytes {
            if byte == 0x0A {
                if discardingLine {
                    discardingLine = false
                } else {
                    var end = filled
                    if end > 0, buffer[end - 1] == 0x0D { end -= 1 }
                    if end > 0 {  // blank lines are skipped
                        buffer.withUnsafeBufferPointer { packet(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[0..<end]))) }
                    }
                }
                filled = 0
            } else if !discardingLine {
                if filled == buffer.count {
                    discardingLine = true
                    filled = 0
                    tooLong()
                } else {
                    buffer[filled] = byte
                    filled += 1
                }
            }
        }
    }

    private func feedSynced(_ bytes: UnsafeRawBufferPointer, packet: (UnsafeRawBufferPointer) -> Void) {
        for byte in bytes {
            // While the sync bytes are being matched, a byte that breaks them restarts the search.
            if filled < sync.count, byte != sync[filled] {
                skippedBytes += filled
                filled = 0
                if byte != sync[0] {
                    skippedBytes += 1
                    continue
                }
            }
            buffer[filled] = byte
            filled += 1
            if filled == packetLength {
                buffer.withUnsafeBufferPointer { packet(UnsafeRawBufferPointer($0)) }
                filled = 0
            }
        }
    }
}

/// Calls `line` for each LF-ended (or final) non-blank line of `bytes`, a CR before the LF dropped: the lines of one
/// datagram or notification.
func forEachLine(in bytes: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer) -> Void) {
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
        var end = index
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        if end > start { line(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
        start = index + 1
    }
}
