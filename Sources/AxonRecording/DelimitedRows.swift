import AxonMemory

/// What a column of a comma-separated data table holds.
enum ColumnRole: Equatable {
    /// Values of the channel with this index.
    case channel(Int)
    /// The per-row time (parsed as written; the reader scales it).
    case timestamp
    /// A non-negative integer device counter.
    case counter
    /// An event marker: non-zero values become ``RecordingMarker``s.
    case marker
    /// Not kept (accelerometer, aux, formatted time, …); never parsed, only counted.
    case ignored
}

/// The rows of a table, parsed.
struct ParsedRows {
    var values: [Double] = []
    var timestamps: [Double]?
    var counters: [UInt64]?
    var markers: [RecordingMarker] = []
    var frameCount = 0
    var truncation: RecordingTruncation?
    var warnings: [String] = []
}

/// Reads the data rows of a delimited table (commas, or tabs for BrainFlow's files) whose header, if any, has already
/// been read: one row per line, one field per column, numbers in the columns that are kept. Blank lines are
/// skipped. Variants that writing applications produce are taken: a complete line may leave off trailing fields of
/// columns that are not kept, and may carry extra empty fields after the header's (a trailing separator).
///
/// Bad rows: a row that cannot be read throws ``RecordingError/malformedRow(line:reason:)`` with its line number —
/// unless it is the file's last line *and* has no line terminator: that is a file cut while it was written, so
/// the rows before it are returned and the cut is described in ``ParsedRows/truncation``. A last line without a
/// terminator that does parse is kept, with a warning.
///
/// Threading: stateless; any thread.
enum DelimitedRows {
    /// Parses from `cursor`'s position to the end of its buffer.
    ///
    /// - Parameters:
    ///   - columns: the role of each column, in file order; a row must have exactly this many fields.
    ///   - names: the header's column names, for messages.
    ///   - channelCount: how many `.channel` columns there are (indices `0..<channelCount`).
    ///   - separator: the byte between fields (`,` or a tab).
    ///   - counterModulus: where the `.counter` column wraps; a counter at or past it makes the row malformed.
    /// - Complexity: O(bytes); allocates the result arrays (grown geometrically) and nothing per field.
    static func parse(
        _ cursor: inout LineCursor, columns: [ColumnRole], names: [String], channelCount: Int,
        separator: UInt8 = UInt8(ascii: ","), counterModulus: UInt64? = nil
    ) throws(RecordingError) -> ParsedRows {
        precondition(columns.count == names.count && channelCount >= 1)
        let bytes = cursor.bytes
        guard let base = bytes.baseAddress else { return ParsedRows() }
        var rows = ParsedRows()
        if columns.contains(.timestamp) { rows.timestamps = [] }
        if columns.contains(.counter) { rows.counters = [] }
        let frame = OwnedBuffer<Double>(repeating: 0, count: channelCount)
        var reserved = false

        while let line = cursor.next() {
            if cursor.isBlank(line) { continue }
            if !reserved {
                // Size the arrays once from the first row's length; they still grow if rows get longer.
                let estimate = (bytes.count - line.start) / max(1, line.next - line.start) + 16
                rows.values.reserveCapacity(estimate * channelCount)
                rows.timestamps?.reserveCapacity(estimate)
                rows.counters?.reserveCapacity(estimate)
                reserved = true
            }
            var timestamp = Double.nan
            var counter: UInt64 = 0
            var marker = 0.0
            var failure = parseRow(
                base, line: line, separator: separator, columns: columns, names: names, frame: frame,
                timestamp: &timestamp, counter: &counter, marker: &marker)
            if failure == nil, let modulus = counterModulus, counter >= modulus,
                let column = columns.firstIndex(of: .counter)
            {
                failure = "field \(column + 1) (\"\(names[column])\") is \(counter), not below the counter modulus \(modulus)"
            }
            if let reason = failure {
                guard !line.isTerminated else { throw .malformedRow(line: line.number, reason: reason) }
                let cut = RecordingTruncation(
                    line: line.number, byteOffset: line.start, droppedBytes: bytes.count - line.start,
                    reason: reason)
                rows.truncation = cut
                rows.warnings.append(cut.description)
                break
            }
            if !line.isTerminated {
                rows.warnings.append("line \(line.number): the last row has no line terminator (kept: it is complete)")
            }
            frame.withUnsafeBufferPointer { rows.values.append(contentsOf: $0) }
            rows.timestamps?.append(timestamp)
            rows.counters?.append(counter)
            if marker != 0 && !marker.isNaN {
                rows.markers.append(RecordingMarker(frame: rows.frameCount, value: marker))
            }
            rows.frameCount += 1
        }
        return rows
    }

    /// Parses one row into `frame` and the out-parameters; returns why it failed, or `nil`.
    private static func parseRow(
        _ base: UnsafePointer<UInt8>, line: TextLine, separator comma: UInt8, columns: [ColumnRole], names: [String],
        frame: borrowing OwnedBuffer<Double>, timestamp: inout Double, counter: inout UInt64,
        marker: inout Double
    ) -> String? {
        var fieldStart = line.start
        var column = 0
        while true {
            var fieldEnd = fieldStart
            while fieldEnd < line.end && base[fieldEnd] != comma { fieldEnd += 1 }
            guard column < columns.count else {
                // Extra fields after the header's are taken when empty (a trailing separator), refused otherwise.
                var index = fieldStart
                while index < fieldEnd, base[index] == 0x20 || base[index] == 0x09 { index += 1 }
                if index < fieldEnd { return "more than the \(columns.count) fields of the header" }
                column += 1
                if fieldEnd >= line.end { break }
                fieldStart = fieldEnd + 1
                continue
            }
            let role = columns[column]
            if role != .ignored {
                guard let number = DecimalParser.parse(base, from: fieldStart, to: fieldEnd) else {
                    let text = String(
                        decoding: UnsafeBufferPointer(start: base + fieldStart, count: fieldEnd - fieldStart),
                        as: UTF8.self)
                    return "field \(column + 1) (\"\(names[column])\") is \"\(text)\", not a number"
                }
                switch role {
                case .channel(let index):
                    frame[index] = number
                case .timestamp:
                    guard number.isFinite else {
                        return "field \(column + 1) (\"\(names[column])\") is not a finite time"
                    }
                    timestamp = number
                case .counter:
                    guard number >= 0, number < 0x1p53, number.rounded(.towardZero) == number else {
                        return "field \(column + 1) (\"\(names[column])\") is \(number), not a non-negative integer"
                    }
                    counter = UInt64(number)
                case .marker:
                    marker = number
                case .ignored:
                    break
                }
            }
            column += 1
            if fieldEnd >= line.end { break }
            fieldStart = fieldEnd + 1
        }
        if column < columns.count {
            // A complete line may leave off trailing fields the reader does not keep (they read as empty); a kept
            // one missing, or any field missing on a last line without its terminator (a cut row), is an error.
            guard line.isTerminated, columns[column...].allSatisfy({ $0 == .ignored }) else {
                return "\(column) fields where the header has \(columns.count)"
            }
        }
        return nil
    }
}
