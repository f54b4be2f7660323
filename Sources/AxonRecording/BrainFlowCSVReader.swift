import AxonStreams

/// Reads the BrainFlow-format files the OpenBCI GUI (v5 and later) records, `BrainFlow-RAW_<session>_<n>.csv`, and
/// anything else written by BrainFlow's file streamer or `DataFilter.write_file` for an OpenBCI board.
///
/// The format: no header; one row per sample; BrainFlow's data array transposed, so each column is one row of the
/// board's description (``BrainFlowBoard``); fields separated by tabs and written with `%lf` (six decimals):
///
///     0.000000	61379.360000	…	0.238000	0.000000	…	1557936053.329000	0.000000
///
/// What the reader keeps:
///
/// | file column | in the ``Recording`` |
/// |---|---|
/// | the EEG columns (1…N) | channels `EXG0` … `EXG<N-1>`, µV |
/// | package number (column 0) | ``Recording/counters`` wrapping at 256 — Cyton only (a Daisy's steps by 2, a Ganglion's by packet) |
/// | timestamp (Unix seconds) | ``Recording/timestamps`` |
/// | marker | ``Recording/markers`` (non-zero values) |
/// | accelerometer, other, analog, resistance | not kept |
///
/// **Which board.** The file does not say. Given `board`, the reader uses that board's description and requires its
/// column count. Without it, the column count decides (``BrainFlowBoard/assumed(columnCount:)``): 24 → Cyton
/// (250 Hz), 32 → Cyton + Daisy (125 Hz), 15 → Ganglion (200 Hz), 25 → Ganglion WiFi. A WiFi Shield Cyton has the
/// same 24 columns at 1000 Hz: the rate the timestamps show goes to `metadata["measuredRate"]`, with a warning when
/// it is more than 2 % off, and `axon … --board cyton-wifi` reads it right. The choice and its reason go to
/// `metadata["board"]`. Cyton channels declare the range ±187500 µV (the rails at gain 24, BrainFlow's default scale).
///
/// Bad input: another column count without `board` → ``RecordingError/malformedHeader(line:reason:)`` naming the
/// counts it knows; a bad row → ``RecordingError/malformedRow(line:reason:)``; a last row cut off → the rows before
/// it and ``Recording/truncation``.
///
/// Threading: an immutable value; `read` may run on any thread, concurrently.
public struct BrainFlowCSVReader: Sendable {
    /// The board the file was recorded from; `nil` to decide from the column count.
    public var board: BrainFlowBoard?

    /// Creates a reader for `board`, or one that decides from the column count.
    public init(board: BrainFlowBoard? = nil) {
        self.board = board
    }

    /// Whether a file's first line looks like a BrainFlow row: at least 4 tab-separated fields, all numbers.
    static func isRow(_ line: String) -> Bool {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        return fields.count >= 4 && fields.allSatisfy { Double(trimmed(String($0))) != nil }
    }

    /// Reads a file.
    ///
    /// - Throws: ``RecordingError``.
    /// - Complexity: O(file size).
    public func read(path: String) throws(RecordingError) -> Recording {
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path))
    }

    /// Reads a file's contents; `sourceName` names the data in the descriptor (`sourceID` `file:<sourceName>`).
    public func read(bytes: [UInt8], sourceName: String = "brainflow") throws(RecordingError) -> Recording {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) -> Recording in
            try parse(buffer, sourceName: sourceName)
        }
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, sourceName: String) throws(RecordingError) -> Recording {
        var cursor = LineCursor(bytes)
        var probe = cursor
        guard let first = probe.next(), Self.isRow(probe.text(of: first)) else {
            throw .unsupportedFormat(firstLine: LineCursor.firstLine(of: bytes))
        }
        let columnCount = probe.text(of: first).split(separator: "\t", omittingEmptySubsequences: false).count
        let chosen: BrainFlowBoard
        var metadata: [String: String] = [:]
        if let board {
            guard board.columnCount == columnCount else {
                throw .malformedHeader(
                    line: first.number,
                    reason: "\(columnCount) columns, but BrainFlow's \(board) rows have \(board.columnCount)")
            }
            chosen = board
            metadata["board"] = "\(board) (BrainFlow board \(board.brainFlowID)), as given"
        } else {
            guard let assumed = BrainFlowBoard.assumed(columnCount: columnCount) else {
                throw .malformedHeader(
                    line: first.number,
                    reason: "\(columnCount) tab-separated columns match no OpenBCI board's BrainFlow layout "
                        + "(Cyton 24, Cyton + Daisy 32, Ganglion 15, Ganglion WiFi 25)")
            }
            chosen = assumed
            let others = BrainFlowBoard.candidates(columnCount: columnCount).filter { $0 != assumed }
            metadata["board"] =
                "\(assumed) (BrainFlow board \(assumed.brainFlowID)), from the \(columnCount) columns"
                + (others.isEmpty
                    ? ""
                    : "; "
                        + others.map { "\($0) has them too (--board \($0.rawValue))" }
                        .joined(separator: ", "))
        }

        var roles = [ColumnRole](repeating: .ignored, count: columnCount)
        var names = (0..<columnCount).map { "column \($0 + 1)" }
        var channels: [ChannelInfo] = []
        let isCyton = chosen == .cyton || chosen == .cytonWifi
        let railed = chosen.eegChannelCount >= 8
        for channel in 0..<chosen.eegChannelCount {
            roles[1 + channel] = .channel(channel)
            let label = "EXG\(channel)"
            names[1 + channel] = label
            let range = railed ? OpenBCILegacyTextReader.negativeRail...OpenBCILegacyTextReader.positiveRail : nil
            channels.append(ChannelInfo(label: label, unit: "µV", range: range))
            metadata[Recording.sourceColumnKeyPrefix + label] = "column \(channel + 2)"
        }
        if isCyton {
            roles[0] = .counter
            names[0] = "package number"
        }
        roles[chosen.timestampColumn] = .timestamp
        names[chosen.timestampColumn] = "timestamp"
        roles[chosen.markerColumn] = .marker
        names[chosen.markerColumn] = "marker"

        var rows = try DelimitedRows.parse(
            &cursor, columns: roles, names: names, channelCount: chosen.eegChannelCount, separator: UInt8(ascii: "\t"))
        metadata["file"] = sourceName
        metadata["format"] = "rows of BrainFlow board \(chosen.brainFlowID), \(chosen)"
        if railed { metadata["gain"] = "24 assumed for the rails (BrainFlow's default scale)" }
        if let measured = MeasuredRate(timestamps: rows.timestamps, nominal: chosen.sampleRate) {
            metadata["measuredRate"] = measured.formatted
            if let warning = measured.warning {
                rows.warnings.append(warning + " (another board? see --board)")
            }
        }
        let descriptor = StreamDescriptor(
            name: "OpenBCI \(chosen) EEG", contentType: .eeg, channels: channels, nominalRate: chosen.sampleRate,
            format: .float64, sourceID: "file:\(sourceName)", metadata: metadata)
        return Recording(
            descriptor: descriptor, values: rows.values, timestamps: rows.timestamps, counters: rows.counters,
            counterModulus: rows.counters == nil ? nil : OpenBCITextReader.counterModulus, markers: rows.markers,
            warnings: rows.warnings, truncation: rows.truncation)
    }
}
