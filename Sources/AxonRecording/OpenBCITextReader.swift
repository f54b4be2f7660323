import AxonStreams

/// Reads the text files the OpenBCI GUI (v5/v6) records: "OpenBCI Raw EXG Data".
///
/// The format: `%` header lines (`%OpenBCI Raw EXG Data`, `%Number of channels = 8`, `%Sample Rate = 250 Hz`,
/// `%Board = …`), one CSV header row (`Sample Index, EXG Channel 0, …, Timestamp, Marker Channel, Timestamp
/// (Formatted)`), then one row per sample. What the reader keeps:
///
/// | file column | in the ``Recording`` |
/// |---|---|
/// | `EXG Channel 0` … `EXG Channel N-1` | channels labelled `EXG0` … `EXG<N-1>`, unit µV |
/// | `Sample Index` | ``Recording/counters``, wrapping at 256 (``counterModulus``; an index above 255 is a malformed row) |
/// | `Timestamp` | ``Recording/timestamps`` in Unix seconds (the GUI writes milliseconds; see below) |
/// | `Marker Channel` | ``Recording/markers`` (rows whose marker is non-zero) |
/// | accelerometer, digital/analog aux, formatted time | not kept |
///
/// The original column name of each channel is kept in the descriptor's metadata
/// (`metadata["sourceColumn.EXG0"] == "EXG Channel 0"`; see ``Recording/sourceColumnKeyPrefix``).
/// Columns are found by their header names, not positions. `Sample Index`, `Timestamp` and `Marker Channel` are
/// optional; every EXG column the `%Number of channels` line promises is required. The `Timestamp` unit is
/// decided from the first row: above 10^11 it is milliseconds (the GUI's choice; 10^11 s would be the year 5138),
/// else seconds. The nominal rate is the header's; the rate measured from the timestamps goes to
/// `metadata["measuredRate"]`, with a warning if it is more than 2 % off.
///
/// Bad input: a missing `%` line or column → ``RecordingError/missingHeader(line:expected:)``; a row that cannot
/// be read → ``RecordingError/malformedRow(line:reason:)`` (the reader does not skip rows: a gap in a recording
/// must not be silent); a last row cut off without a line terminator (a crash while recording) → the rows before
/// it, with ``Recording/truncation`` set.
///
///     let recording = try OpenBCITextReader().read(path: "OpenBCI-RAW-2019-05-15_12-00-53.txt")
///     recording.frameCount      // 22,490
///     recording.channelLabels   // ["EXG0", …, "EXG7"]
///
/// Speed: one pass over the bytes with a hand-written number parser and no per-field allocation; the 3.5 MB
/// sample file (22,490 rows × 25 columns) loads in a few tens of milliseconds in a release build.
///
/// Threading: an immutable value; `read` may run on any thread, concurrently.
public struct OpenBCITextReader: Sendable {
    /// The first line of every file of this format.
    public static let signature = "%OpenBCI Raw EXG Data"
    /// The `Sample Index` column counts 0…255 and wraps.
    public static let counterModulus: UInt64 = 256

    /// Creates a reader.
    public init() {}

    /// Reads a file.
    ///
    /// - Throws: ``RecordingError`` (`.cannotOpen`/`.readFailed` with errno, `.unsupportedFormat`,
    ///   `.missingHeader`, `.malformedHeader`, `.malformedRow`).
    /// - Complexity: O(file size).
    public func read(path: String) throws(RecordingError) -> Recording {
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path))
    }

    /// Reads a file's contents.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - sourceName: names the data in the descriptor (`sourceID` `file:<sourceName>`, `metadata["file"]`).
    public func read(bytes: [UInt8], sourceName: String = "openbci") throws(RecordingError) -> Recording {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) -> Recording in
            try parse(buffer, sourceName: sourceName)
        }
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, sourceName: String) throws(RecordingError) -> Recording {
        var cursor = LineCursor(bytes)
        guard let first = cursor.next(), trimmed(cursor.text(of: first)) == Self.signature else {
            throw .unsupportedFormat(firstLine: LineCursor.firstLine(of: bytes))
        }

        // `%key = value` lines up to the CSV header row.
        var channelCount: Int?
        var rate: Double?
        var metadata: [String: String] = [:]
        var headerRow: TextLine?
        while let line = cursor.next() {
            let text = cursor.text(of: line)
            guard text.hasPrefix("%") else {
                headerRow = line
                break
            }
            guard let (key, value) = PercentHeader.entry(text) else { continue }
            switch key.lowercased() {
            case "number of channels":
                guard let count = Int(value), (1...1024).contains(count) else {
                    throw .malformedHeader(line: line.number, reason: "channel count \"\(value)\" is not 1…1024")
                }
                channelCount = count
            case "sample rate":
                rate = try PercentHeader.sampleRate(value, line: line.number)
            case "board":
                metadata["board"] = value
            default:
                metadata["header." + key] = value
            }
        }
        guard let headerRow else {
            throw .missingHeader(
                line: cursor.lineNumber + 1,
                expected: "the CSV column header row (\"Sample Index, EXG Channel 0, …\")")
        }
        guard let channelCount else {
            throw .missingHeader(line: headerRow.number, expected: "a \"%Number of channels = N\" line before it")
        }
        guard let rate else {
            throw .missingHeader(line: headerRow.number, expected: "a \"%Sample Rate = R Hz\" line before it")
        }

        // Column roles from the header names.
        let names = cursor.text(of: headerRow).split(separator: ",", omittingEmptySubsequences: false)
            .map { trimmed(String($0)) }
        var roles = [ColumnRole](repeating: .ignored, count: names.count)
        var channels: [ChannelInfo] = []
        for channel in 0..<channelCount {
            let name = "EXG Channel \(channel)"
            guard let column = names.firstIndex(where: { $0.caseInsensitiveEquals(name) }) else {
                throw .missingHeader(line: headerRow.number, expected: "a column \"\(name)\"")
            }
            roles[column] = .channel(channel)
            let label = "EXG\(channel)"
            channels.append(ChannelInfo(label: label, unit: "µV"))
            metadata[Recording.sourceColumnKeyPrefix + label] = names[column]
        }
        let optional: [(String, ColumnRole)] = [
            ("Sample Index", .counter), ("Timestamp", .timestamp), ("Marker Channel", .marker),
        ]
        for (name, role) in optional {
            if let column = names.firstIndex(where: { $0.caseInsensitiveEquals(name) }) { roles[column] = role }
        }

        var rows = try DelimitedRows.parse(
            &cursor, columns: roles, names: names, channelCount: channelCount, counterModulus: Self.counterModulus)
        if let first = rows.timestamps?.first, first > 1e11 {
            // Milliseconds → seconds: one correctly rounded division, so 1557936053329 becomes 1557936053.329.
            for index in rows.timestamps!.indices { rows.timestamps![index] /= 1000 }
        }
        metadata["file"] = sourceName
        metadata["format"] = "OpenBCI GUI text (OpenBCI Raw EXG Data)"
        if let measured = MeasuredRate(timestamps: rows.timestamps, nominal: rate) {
            metadata["measuredRate"] = measured.formatted
            if let warning = measured.warning { rows.warnings.append(warning) }
        }
        let descriptor = StreamDescriptor(
            name: "OpenBCI EXG", contentType: .eeg, channels: channels, nominalRate: rate, format: .int24,
            sourceID: "file:\(sourceName)", metadata: metadata)
        return Recording(
            descriptor: descriptor, values: rows.values, timestamps: rows.timestamps, counters: rows.counters,
            counterModulus: rows.counters == nil ? nil : Self.counterModulus, markers: rows.markers,
            warnings: rows.warnings, truncation: rows.truncation)
    }
}

/// Trims spaces and tabs.
func trimmed(_ text: String) -> String {
    var slice = Substring(text)
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
    return String(slice)
}

extension String {
    /// ASCII-case-insensitive equality, for header names.
    func caseInsensitiveEquals(_ other: String) -> Bool { lowercased() == other.lowercased() }
}
