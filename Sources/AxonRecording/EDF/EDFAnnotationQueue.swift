import AxonMemory

/// Annotations waiting for the data record they belong to, and the TAL bytes that write them: the EDF writer's
/// annotation side, in preallocated storage.
///
/// An annotation is due in the first record that ends after its onset. Due annotations are written in submission
/// order while they fit the record's annotation bytes; the rest wait for the next record (never dropped). Onsets
/// and durations are kept in ticks of 100 ns, the resolution the TALs are written with.
///
/// Threading contract: owned by the writer's thread. `append` copies the text into an arena that grows only when
/// more text waits than ever before; writing a record allocates nothing.
struct EDFAnnotationQueue: ~Copyable {
    struct Entry {
        var onset: Int64
        /// Duration in ticks, or −1 for none.
        var duration: Int64
        var textStart: Int
        var textLength: Int
    }

    /// Ticks per second (100 ns resolution, as EDFlib).
    static let ticksPerSecond: Int64 = 10_000_000
    /// TAL bytes around the text at most: sign, 12 integer digits, point, 7 decimals, twice, and 4 separators.
    static let talOverhead = 2 * 21 + 4

    private(set) var entries: [Entry] = []
    private var arena: [UInt8] = []
    /// Scratch for one formatted number.
    private let digits = OwnedBuffer<UInt8>(repeating: 0, count: 32)
    /// The longest text one record can hold (longer texts are cut at a UTF-8 character boundary).
    let maximumTextLength: Int
    /// Texts cut to ``maximumTextLength``.
    private(set) var truncatedCount = 0

    init(bytesPerRecord: Int) {
        entries.reserveCapacity(256)
        arena.reserveCapacity(16_384)
        // Room for the time-keeping TAL (≤ 24 bytes) and one annotation's overhead.
        maximumTextLength = max(1, bytesPerRecord - 24 - Self.talOverhead)
    }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    static func ticks(_ seconds: Double) -> Int64 {
        let value = (seconds * Double(ticksPerSecond)).rounded()
        return Int64(max(min(value, 9e17), -9e17))
    }

    /// Queues an annotation. Separator bytes (0x00, 0x14, 0x15) in the text become spaces.
    mutating func append(onset: Int64, duration: Int64, text: UnsafeRawBufferPointer) {
        var length = text.count
        if length > maximumTextLength {
            length = maximumTextLength
            // Back up to the start of a UTF-8 character.
            while length > 0, text[length] & 0xC0 == 0x80 { length -= 1 }
            truncatedCount += 1
        }
        let start = arena.count
        for index in 0..<length {
            let byte = text[index]
            arena.append(byte == 0 || byte == 0x14 || byte == 0x15 ? UInt8(ascii: " ") : byte)
        }
        entries.append(Entry(onset: onset, duration: duration, textStart: start, textLength: length))
    }

    /// Fills `region` (zeroed first) with the time-keeping TAL for `recordStart`, then the due annotations that fit.
    /// With `final`, every waiting annotation is due.
    /// - Returns: the number of annotations written.
    mutating func write(
        into region: UnsafeMutableRawBufferPointer, recordStart: Int64, recordEnd: Int64, final: Bool
    ) -> Int {
        region.initializeMemory(as: UInt8.self, repeating: 0)
        var cursor = 0
        cursor = put(seconds: recordStart, into: region, at: cursor)
        region[cursor] = 0x14
        region[cursor + 1] = 0x14
        region[cursor + 2] = 0
        cursor += 3
        var written = 0
        var kept = 0
        var blocked = false
        for index in entries.indices {
            let entry = entries[index]
            if !blocked, final || entry.onset < recordEnd {
                let needed = talLength(entry)
                if cursor + needed <= region.count {
                    cursor = put(entry, into: region, at: cursor)
                    written += 1
                    continue
                }
                blocked = true  // keep submission order: what comes after waits too
            }
            entries[kept] = entry
            kept += 1
        }
        if written > 0 { compact(keeping: kept) }
        return written
    }

    private mutating func compact(keeping kept: Int) {
        entries.removeSubrange(kept...)
        guard kept > 0 else {
            arena.removeAll(keepingCapacity: true)
            return
        }
        var end = 0
        arena.withUnsafeMutableBufferPointer { bytes in
            for index in 0..<kept {
                let entry = entries[index]
                if entry.textStart != end {
                    for offset in 0..<entry.textLength { bytes[end + offset] = bytes[entry.textStart + offset] }
                }
                entries[index].textStart = end
                end += entry.textLength
            }
        }
        arena.removeSubrange(end...)
    }

    private func talLength(_ entry: Entry) -> Int {
        var length = numberLength(entry.onset) + 2 + entry.textLength + 1
        if entry.duration >= 0 { length += 1 + numberLength(entry.duration) - 1 }  // durations carry no sign
        return length
    }

    private func put(_ entry: Entry, into region: UnsafeMutableRawBufferPointer, at start: Int) -> Int {
        var cursor = put(seconds: entry.onset, into: region, at: start)
        if entry.duration >= 0 {
            region[cursor] = 0x15
            cursor = put(seconds: entry.duration, into: region, at: cursor + 1, signed: false)
        }
        region[cursor] = 0x14
        cursor += 1
        arena.withUnsafeBufferPointer { text in
            for offset in 0..<entry.textLength { region[cursor + offset] = text[entry.textStart + offset] }
        }
        cursor += entry.textLength
        region[cursor] = 0x14
        region[cursor + 1] = 0
        return cursor + 2
    }

    /// Characters of `ticks` as a signed decimal number of seconds.
    private func numberLength(_ ticks: Int64) -> Int {
        format(ticks, signed: true)
    }

    private func put(
        seconds ticks: Int64, into region: UnsafeMutableRawBufferPointer, at cursor: Int, signed: Bool = true
    ) -> Int {
        let length = format(ticks, signed: signed)
        for index in 0..<length { region[cursor + index] = digits[index] }
        return cursor + length
    }

    /// Formats `ticks` as seconds (`+12.004`, trailing zeros trimmed) into ``digits``; returns its length.
    private func format(_ ticks: Int64, signed: Bool) -> Int {
        var cursor = 0
        if signed {
            digits[0] = ticks < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            cursor = 1
        }
        let magnitude = ticks.magnitude
        var whole = magnitude / UInt64(Self.ticksPerSecond)
        var fraction = magnitude % UInt64(Self.ticksPerSecond)
        // Integer digits, most significant first.
        var divisor: UInt64 = 1
        while whole / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            digits[cursor] = UInt8(ascii: "0") + UInt8(whole / divisor)
            whole %= divisor
            divisor /= 10
            cursor += 1
        }
        if fraction > 0 {
            digits[cursor] = UInt8(ascii: ".")
            cursor += 1
            var place = UInt64(Self.ticksPerSecond / 10)
            while fraction > 0 {
                digits[cursor] = UInt8(ascii: "0") + UInt8(fraction / place)
                fraction %= place
                place /= 10
                cursor += 1
            }
        }
        return cursor
    }
}
