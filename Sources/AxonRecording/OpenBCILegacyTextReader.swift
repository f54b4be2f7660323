import AxonStreams

/// Reads the text files the OpenBCI GUI wrote from 2014 to 2019 (GUI v1–v4): "OpenBCI Raw EEG Data".
///
/// The format: `%` header lines and no column header row. The 2016-era GUI wrote five:
///
///     %OpenBCI Raw EEG Data
///     %
///     %Sample Rate = 250.0 Hz
///     %First Column = SampleIndex
///     %Other Columns = EEG data in microvolts followed by Accel Data (in G) interleaved with Aux Data
///     0, 61379.36, 49492.89, …, 1740.11, 0.040, 0.420, 0.238, 12:00:53.329
///
/// Later versions add `%Number of channels = N` as the second line and `%Last Column = Timestamp`, and end each row
/// with a Unix time in milliseconds after the time of day. Each row: the sample index, N EEG values in µV (`%.2f`),
/// 3 accelerometer/aux values, then optional time columns. What the reader keeps:
///
/// | file column | in the ``Recording`` |
/// |---|---|
/// | the sample index | ``Recording/counters``, wrapping at 256 — kept for 8-channel files only (a Daisy's or Ganglion's index does not step by one per row) |
/// | the N EEG columns | channels `EXG0` … `EXG<N-1>`, µV, declared range ±rail at gain 24 (below) |
/// | the Unix milliseconds column, when present | ``Recording/timestamps`` in Unix seconds |
/// | accelerometer/aux values, the time of day (`HH:mm:ss.SSS`) | not kept; the first row's time of day goes to `metadata["firstTimeOfDay"]` |
///
/// N comes from `%Number of channels` when the file has it, else from the first row: numeric fields − 4 (index and
/// the 3 aux values), which must be 4 (Ganglion), 8 (Cyton) or 16 (Cyton + Daisy). A field holding `:` is a time of
/// day; a last numeric field above 10^11 is Unix milliseconds.
///
/// **Railed values are kept as written.** These GUIs scaled every channel at gain 24 (4.5 V / 24 / (2^23 − 1) per
/// count), so an input at the ADC's rail reads −187500.02 or 187500.00 µV. Each channel declares the range
/// −187500.0224…187500.0 µV (the extreme 24-bit counts), which is what `axon analyze` takes as the rail and what
/// `axon convert` uses as the EDF/BDF physical range, so railed samples survive conversion at the range's ends.
///
/// Bad input: no `%Sample Rate` line → ``RecordingError/missingHeader(line:expected:)``; a channel count that
/// cannot be worked out, or a row with a different number of fields → ``RecordingError/malformedHeader(line:reason:)``
/// / ``RecordingError/malformedRow(line:reason:)``; a last row cut off → the rows before it and
/// ``Recording/truncation``.
///
/// Threading: an immutable value; `read` may run on any thread, concurrently.
public struct OpenBCILegacyTextReader: Sendable {
    /// The first line of every file of this format.
    public static let signature = "%OpenBCI Raw EEG Data"
    /// µV per count at gain 24, as the GUI computed it.
    public static let microvoltsPerCount = 4.5 / 24 / 8_388_607 * 1_000_000
    /// The most negative value a channel can hold: −2^23 counts (−187500.0224 µV).
    public static let negativeRail = -8_388_608 * microvoltsPerCount
    /// The most positive value: 2^23 − 1 counts (187500.0 µV).
    public static let positiveRail = 8_388_607 * microvoltsPerCount

    /// Creates a reader.
    public init() {}

    /// Reads a file.
    ///
    /// - Throws: ``RecordingError``.
    /// - Complexity: O(file size).
    public func read(path: String) throws(RecordingError) -> Recording {
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path))
    }

    /// Reads a file's contents; `sourceName` names the data in the descriptor (`sourceID` `file:<sourceName>`).
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
        var declaredChannels: Int?
        var rate: Double?
        var metadata: [String: String] = [:]
        var headerLines = 1
        var lastHeader = first
        // `%key = value` lines until the first data row; the cursor is then rewound to that row.
        var probe = cursor
        var firstRow: TextLine?
        while let line = probe.next() {
            let text = probe.text(of: line)
            if probe.isBlank(line) { continue }
            guard text.hasPrefix("%") else {
                firstRow = line
                break
            }
            cursor = probe
            headerLines += 1
            lastHeader = line
            guard let (key, value) = PercentHeader.entry(text) else { continue }
            switch key.lowercased() {
            case "sample rate":
                rate = try PercentHeader.sampleRate(value, line: line.number)
            case "number of channels":
                guard let count = Int(value), [4, 8, 16].contains(count) else {
                    throw .malformedHeader(line: line.number, reason: "channel count \"\(value)\" is not 4, 8 or 16")
                }
                declaredChannels = count
            default:
                metadata["header." + key] = value
            }
        }
        guard let rate else {
            throw .missingHeader(
                line: lastHeader.number + 1, expected: "a \"%Sample Rate = R Hz\" line before the data")
        }
        guard let firstRow else {
            throw .missingHeader(line: lastHeader.number + 1, expected: "data rows after the % header lines")
        }

        // The layout from the first row: index, EEG…, 3 aux, then optional time of day and Unix milliseconds.
        let fields = probe.text(of: firstRow).split(separator: ",", omittingEmptySubsequences: false)
            .map { trimmed(String($0)) }
        var numeric = fields.count
        var timeOfDayColumn: Int?
        var unixColumn: Int?
        for _ in 0..<2 where numeric > 0 {
            let field = fields[numeric - 1]
            if timeOfDayColumn == nil, field.contains(":") {
                timeOfDayColumn = numeric - 1
            } else if unixColumn == nil, let value = Double(field), value > 1e11 {
                unixColumn = numeric - 1
            } else {
                break
            }
            numeric -= 1
        }
        let inferred = numeric - 4
        let channelCount = declaredChannels ?? inferred
        guard [4, 8, 16].contains(channelCount), channelCount <= numeric - 1 else {
            throw .malformedHeader(
                line: firstRow.number,
                reason: "\(numeric) numeric fields do not hold a sample index, 4, 8 or 16 EEG channels and 3 aux values"
            )
        }

        var roles = [ColumnRole](repeating: .ignored, count: fields.count)
        var names = [String](repeating: "aux", count: fields.count)
        roles[0] = channelCount == 8 ? .counter : .ignored
        names[0] = "SampleIndex"
        var channels: [ChannelInfo] = []
        for channel in 0..<channelCount {
            roles[1 + channel] = .channel(channel)
            names[1 + channel] = "EEG \(channel + 1)"
            let label = "EXG\(channel)"
            channels.append(ChannelInfo(label: label, unit: "µV", range: Self.negativeRail...Self.positiveRail))
            metadata[Recording.sourceColumnKeyPrefix + label] = "column \(channel + 2)"
        }
        if let unixColumn {
            roles[unixColumn] = .timestamp
            names[unixColumn] = "Timestamp"
        }
        if let timeOfDayColumn { names[timeOfDayColumn] = "time of day" }

        var rows = try DelimitedRows.parse(&cursor, columns: roles, names: names, channelCount: channelCount)
        if rows.timestamps != nil {
            for index in rows.timestamps!.indices { rows.timestamps![index] /= 1000 }
        }
        if let timeOfDayColumn, rows.frameCount > 0 {
            metadata["firstTimeOfDay"] = "\(fields[timeOfDayColumn]) (the file has no date)"
        }
        metadata["file"] = sourceName
        metadata["format"] = "OpenBCI Raw EEG Data"
        metadata["headerLines"] = String(headerLines)
        metadata["channelCount"] =
            declaredChannels == nil ? "\(channelCount) (from the columns)" : "\(channelCount) (from the header)"
        metadata["gain"] = "24 assumed (the GUI scaled every channel at 24; rails ±187500 µV)"
        if channelCount != 8 {
            metadata["sampleIndex"] = "not kept: it does not count rows for \(channelCount) channels"
        }
        if let measured = MeasuredRate(timestamps: rows.timestamps, nominal: rate) {
            metadata["measuredRate"] = measured.formatted
            if let warning = measured.warning { rows.warnings.append(warning) }
        }
        let descriptor = StreamDescriptor(
            name: "OpenBCI EEG", contentType: .eeg, channels: channels, nominalRate: rate, format: .int24,
            sourceID: "file:\(sourceName)", metadata: metadata)
        return Recording(
            descriptor: descriptor, values: rows.values, timestamps: rows.timestamps, counters: rows.counters,
            counterModulus: rows.counters == nil ? nil : OpenBCITextReader.counterModulus, markers: rows.markers,
            warnings: rows.warnings, truncation: rows.truncation)
    }
}
