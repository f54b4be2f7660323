import AxonMemory
import AxonStreams

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads Axon's own CSV (``AxonCSVFormat``) into a ``Recording``.
///
/// | in the file | in the ``Recording`` |
/// |---|---|
/// | `# descriptor {…}` | ``Recording/descriptor`` as written (the key `axon.counterModulus`, if present, becomes ``Recording/counterModulus`` and leaves the metadata) |
/// | `device_time` | ``Recording/timestamps`` — when every row has one and they are Unix times (after 2001) |
/// | `host_time` | ``Recording/timestamps`` when the device times are not Unix times (or missing) and these are (what the CSV sink writes); else the device times as written, if every row has one; else none, with a warning |
/// | `# marker FRAME,VALUE[,TEXT]` lines | ``Recording/markers`` (a frame past the last row is skipped with a warning) |
/// | `counter` | ``Recording/counters`` — when every row has one; otherwise none, with a warning. Each must be below `axon.counterModulus` when the descriptor has one (otherwise the row is malformed) |
/// | `sample` | checked (a non-negative integer), not kept |
/// | `<label> (<unit>)` | the channel's values |
///
/// Bad input: a first line other than `# axon-csv 1` → ``RecordingError/unsupportedFormat(firstLine:)``; a
/// missing or undecodable descriptor, or a header row that does not match it →
/// ``RecordingError/missingHeader(line:expected:)`` / ``RecordingError/malformedHeader(line:reason:)``; a row
/// that cannot be read → ``RecordingError/malformedRow(line:reason:)`` with its line number, except a last line
/// without a terminator (a file cut while written): the rows before it are kept and ``Recording/truncation``
/// describes the cut, as ``OpenBCITextReader`` does.
///
///     let recording = try AxonCSVReader().read(path: "session.csv")
///
/// Threading: an immutable value; `read` may run on any thread, concurrently.
public struct AxonCSVReader: Sendable {
    /// Metadata key under which ``AxonCSVWriter`` stores a recording's counter modulus.
    public static let counterModulusKey = "axon.counterModulus"
    /// Most channels a descriptor may declare (bounds the work a lying header can cause).
    public static let maximumChannels = 4096

    /// Creates a reader.
    public init() {}

    /// Reads a file.
    ///
    /// - Throws: ``RecordingError`` (`.cannotOpen`/`.readFailed`, `.unsupportedFormat`, `.missingHeader`,
    ///   `.malformedHeader`, `.malformedRow`).
    /// - Complexity: O(file size).
    public func read(path: String) throws(RecordingError) -> Recording {
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path))
    }

    /// Reads a file's contents; `sourceName` goes to `metadata["file"]` (the descriptor's `sourceID` is kept).
    public func read(bytes: [UInt8], sourceName: String = "axon-csv") throws(RecordingError) -> Recording {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) -> Recording in
            try parse(buffer, sourceName: sourceName)
        }
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, sourceName: String) throws(RecordingError) -> Recording {
        var cursor = LineCursor(bytes)
        guard let first = cursor.next(), trimmed(cursor.text(of: first)) == AxonCSVFormat.signature else {
            throw .unsupportedFormat(firstLine: LineCursor.firstLine(of: bytes))
        }
        guard let second = cursor.next() else {
            throw .missingHeader(line: 2, expected: "\"\(AxonCSVFormat.descriptorPrefix){…JSON…}\"")
        }
        let secondText = cursor.text(of: second)
        guard secondText.hasPrefix(AxonCSVFormat.descriptorPrefix) else {
            throw .missingHeader(line: 2, expected: "\"\(AxonCSVFormat.descriptorPrefix){…JSON…}\"")
        }
        let json = Array(secondText.utf8.dropFirst(AxonCSVFormat.descriptorPrefix.utf8.count))
        var descriptor: StreamDescriptor
        do {
            descriptor = try JSONDecoder().decode(StreamDescriptor.self, from: Data(json))
        } catch {
            throw .undecodableJSON(line: 2, what: "the descriptor (a JSON StreamDescriptor)", cause: error)
        }
        guard (1...Self.maximumChannels).contains(descriptor.channelCount) else {
            throw .malformedHeader(
                line: 2,
                reason: "the descriptor has \(descriptor.channelCount) channels (need 1…\(Self.maximumChannels))")
        }
        guard descriptor.nominalRate.isFinite, descriptor.nominalRate > 0 else {
            throw .malformedHeader(
                line: 2, reason: "nominal rate \(descriptor.nominalRate): a recording needs a finite rate > 0")
        }
        var counterModulus: UInt64?
        if let text = descriptor.metadata.removeValue(forKey: Self.counterModulusKey) {
            guard let modulus = UInt64(text), modulus >= 2 else {
                throw .malformedHeader(line: 2, reason: "\(Self.counterModulusKey) \"\(text)\" is not an integer ≥ 2")
            }
            counterModulus = modulus
        }
        guard let headerRow = cursor.next() else {
            throw .missingHeader(line: 3, expected: "the header row \"\(AxonCSVFormat.headerRow(for: descriptor))\"")
        }
        let expectedHeader = AxonCSVFormat.headerRow(for: descriptor)
        guard cursor.text(of: headerRow) == expectedHeader else {
            throw .malformedHeader(
                line: 3,
                reason: "the header row does not match the descriptor's channels: expected \"\(expectedHeader)\"")
        }

        var rows = AxonCSVRows(channelCount: descriptor.channelCount, counterModulus: counterModulus)
        try rows.parse(&cursor)
        var warnings = rows.warnings
        // Times: the device's when every row has one and they are Unix times; else host_time when it holds Unix
        // times (what the CSV sink writes); else the device's own times as written (seconds from its power-on).
        let allDeviceTimes = rows.missingDeviceTimes == 0 && rows.frameCount > 0
        var timestamps: [Double]?
        if allDeviceTimes, Self.isUnixTime(rows.deviceTimes[0]) {
            timestamps = rows.deviceTimes
        } else if rows.frameCount > 0, Self.isUnixTime(rows.hostTimes[0]) {
            timestamps = rows.hostTimes
        } else if allDeviceTimes {
            timestamps = rows.deviceTimes
        }
        if rows.missingDeviceTimes > 0 && rows.missingDeviceTimes < rows.frameCount && timestamps == nil {
            warnings.append(
                "\(rows.missingDeviceTimes) of \(rows.frameCount) rows have no device_time: timestamps not kept")
        }
        var markers: [RecordingMarker] = []
        for marker in rows.markers {
            guard marker.frame < rows.frameCount else {
                let name = marker.text ?? "\(marker.value)"
                warnings.append("marker at frame \(marker.frame) (\(name)) is past the last row: skipped")
                continue
            }
            markers.append(marker)
        }
        markers.sort { $0.frame < $1.frame }
        var counters: [UInt64]? = rows.counters
        if rows.missingCounters > 0 && rows.missingCounters < rows.frameCount {
            warnings.append("\(rows.missingCounters) of \(rows.frameCount) rows have no counter: counters not kept")
        }
        if rows.missingCounters > 0 || rows.frameCount == 0 { counters = nil }
        descriptor.metadata["file"] = sourceName
        return Recording(
            descriptor: descriptor, values: rows.values, timestamps: timestamps, counters: counters,
            counterModulus: counters == nil ? nil : counterModulus, markers: markers, warnings: warnings,
            truncation: rows.truncation)
    }

    /// Whether a time is a Unix time of this era (after 2001-01-01), not seconds from a device's power-on.
    static func isUnixTime(_ seconds: Double) -> Bool { seconds > 978_307_200 }
}

/// The data rows of an Axon CSV file, parsed.
struct AxonCSVRows {
    let channelCount: Int
    /// Counters must be below it (a counter at or past the point where it wraps is a damaged row).
    let counterModulus: UInt64?
    var values: [Double] = []
    var deviceTimes: [Double] = []
    var hostTimes: [Double] = []
    var counters: [UInt64] = []
    var markers: [RecordingMarker] = []
    var missingDeviceTimes = 0
    var missingCounters = 0
    var frameCount = 0
    var truncation: RecordingTruncation?
    var warnings: [String] = []

    init(channelCount: Int, counterModulus: UInt64?) {
        self.channelCount = channelCount
        self.counterModulus = counterModulus
    }

    /// Parses from `cursor` to the end of its buffer. O(bytes).
    mutating func parse(_ cursor: inout LineCursor) throws(RecordingError) {
        let bytes = cursor.bytes
        guard let base = bytes.baseAddress else { return }
        let frame = OwnedBuffer<Double>(repeating: 0, count: channelCount)
        var reserved = false
        while let line = cursor.next() {
            if cursor.isBlank(line) { continue }
            if !reserved {
                let estimate = (bytes.count - line.start) / max(1, line.next - line.start) + 16
                values.reserveCapacity(estimate * channelCount)
                deviceTimes.reserveCapacity(estimate)
                counters.reserveCapacity(estimate)
                reserved = true
            }
            if line.end > line.start, base[line.start] == UInt8(ascii: "#") {
                let text = cursor.text(of: line)
                guard let marker = Self.marker(text, frameCount: frameCount) else {
                    throw .malformedRow(
                        line: line.number,
                        reason: "\"\(text.prefix(40))\" is neither a row nor a marker line "
                            + "(\(AxonCSVFormat.markerPrefix)FRAME,VALUE[,TEXT])")
                }
                markers.append(marker)
                continue
            }
            var deviceTime: Double?
            var hostTime = 0.0
            var counter: UInt64?
            if let reason = parseRow(
                base, line: line, frame: frame, deviceTime: &deviceTime, hostTime: &hostTime, counter: &counter)
            {
                guard !line.isTerminated else { throw .malformedRow(line: line.number, reason: reason) }
                let cut = RecordingTruncation(
                    line: line.number, byteOffset: line.start, droppedBytes: bytes.count - line.start, reason: reason)
                truncation = cut
                warnings.append(cut.description)
                break
            }
            if !line.isTerminated {
                warnings.append("line \(line.number): the last row has no line terminator (kept: it is complete)")
            }
            frame.withUnsafeBufferPointer { values.append(contentsOf: $0) }
            deviceTimes.append(deviceTime ?? 0)
            hostTimes.append(hostTime)
            counters.append(counter ?? 0)
            if deviceTime == nil { missingDeviceTimes += 1 }
            if counter == nil { missingCounters += 1 }
            frameCount += 1
        }
    }

    /// Parses one row; returns why it failed, or `nil`.
    private func parseRow(
        _ base: UnsafePointer<UInt8>, line: TextLine, frame: borrowing OwnedBuffer<Double>,
        deviceTime: inout Double?, hostTime: inout Double, counter: inout UInt64?
    ) -> String? {
        let comma = UInt8(ascii: ",")
        let columns = 4 + channelCount
        var fieldStart = line.start
        var column = 0
        while true {
            var fieldEnd = fieldStart
            while fieldEnd < line.end && base[fieldEnd] != comma { fieldEnd += 1 }
            guard column < columns else { return "more than the \(columns) fields of the header" }
            let empty = fieldStart == fieldEnd
            func text() -> String {
                let field = UnsafeBufferPointer(start: base + fieldStart, count: fieldEnd - fieldStart)
                return String(decoding: field, as: UTF8.self)
            }
            switch column {
            case 0:
                guard Self.parseInteger(base, fieldStart, fieldEnd) != nil else {
                    return "field 1 (\"sample\") is \"\(text())\", not a non-negative integer"
                }
            case 1:
                guard let time = DecimalParser.parse(base, from: fieldStart, to: fieldEnd), time.isFinite else {
                    return "field 2 (\"host_time\") is \"\(text())\", not a finite number"
                }
                hostTime = time
            case 2:
                if !empty {
                    guard let time = DecimalParser.parse(base, from: fieldStart, to: fieldEnd), time.isFinite else {
                        return "field 3 (\"device_time\") is \"\(text())\", not a finite number or empty"
                    }
                    deviceTime = time
                }
            case 3:
                if !empty {
                    guard let value = Self.parseInteger(base, fieldStart, fieldEnd) else {
                        return "field 4 (\"counter\") is \"\(text())\", not a non-negative integer or empty"
                    }
                    if let modulus = counterModulus, value >= modulus {
                        return "field 4 (\"counter\") is \(value), not below the counter modulus \(modulus)"
                    }
                    counter = value
                }
            default:
                guard let value = DecimalParser.parse(base, from: fieldStart, to: fieldEnd) else {
                    return "field \(column + 1) (channel \(column - 3)) is \"\(text())\", not a number"
                }
                frame[column - 4] = value
            }
            column += 1
            if fieldEnd >= line.end { break }
            fieldStart = fieldEnd + 1
        }
        guard column == columns else { return "\(column) fields where the header has \(columns)" }
        return nil
    }

    /// A marker line, `# marker FRAME,VALUE[,TEXT]` (``AxonCSVFormat/markerPrefix``), or `nil` when the line is not
    /// one. A marker line may come anywhere after the header row; its frame counts data rows from 0.
    static func marker(_ line: String, frameCount: Int) -> RecordingMarker? {
        guard line.hasPrefix(AxonCSVFormat.markerPrefix) else { return nil }
        let fields = line.dropFirst(AxonCSVFormat.markerPrefix.count).split(
            separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2, let frame = Int(fields[0]), frame >= 0, let value = Double(fields[1]),
            value.isFinite
        else { return nil }
        return RecordingMarker(frame: frame, value: value, text: fields.count == 3 ? String(fields[2]) : nil)
    }

    /// A decimal `UInt64` (digits only, no sign), or `nil` (empty, other characters, overflow).
    static func parseInteger(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt64? {
        guard start < end else { return nil }
        var value: UInt64 = 0
        for i in start..<end {
            let digit = base[i] &- 0x30
            guard digit <= 9 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }
}
