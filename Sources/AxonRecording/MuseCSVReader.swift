import AxonStreams

/// Reads the CSV files muse-lsl (`muselsl record`) and the eeg-notebooks write for the Muse headbands.
///
/// The format: a header row `timestamps,TP9,AF7,AF8,TP10,Right AUX` (EEG; possibly followed by `Marker` or
/// `Marker0`, `Marker1`, … columns), then one row per sample. Columns are found by name, so another order (the
/// `timestamps` column elsewhere) reads too; rows may carry extra empty fields. What the reader keeps:
///
/// The AUX channel keeps its header name as its label, `Right AUX`.
///
/// | file column | in the ``Recording`` |
/// |---|---|
/// | `timestamps` | ``Recording/timestamps`` (Unix seconds, LSL's dejittered stamps) |
/// | every other column (`TP9`, `AF7`, `AF8`, `TP10`, `Right AUX`) | a channel labelled with the header name, µV |
/// | `Marker`, `Marker0`, … | ``Recording/markers`` (rows whose marker is non-zero; several marker columns merge) |
///
/// Nominal rate: 256 Hz, fixed by the format, when the channels are the Muse EEG electrodes (`TP9`, `AF7`,
/// `AF8`, `TP10`); for other muse-lsl streams (PPG, accelerometer) it is estimated from the timestamps and
/// rounded to a whole number. Either way the measured rate goes to `metadata["measuredRate"]` (256.03 Hz for
/// the P300 sample file), with a warning if it is more than 2 % off. Pass `nominalRate` to override.
/// There are no device counters.
///
/// Bad input is handled as in ``OpenBCITextReader``: missing `timestamps` column →
/// ``RecordingError/unsupportedFormat(firstLine:)``; a bad row → ``RecordingError/malformedRow(line:reason:)``;
/// a last row cut off → the rows before it plus ``Recording/truncation``.
///
///     let muse = try MuseCSVReader().read(path: "data_2017-02-04-15_45_13.csv")
///     muse.channelLabels   // ["TP9", "AF7", "AF8", "TP10", "Right AUX"]
///     muse.sampleRate      // 256
///
/// Threading: an immutable value; `read` may run on any thread, concurrently.
public struct MuseCSVReader: Sendable {
    /// Rate of the Muse EEG channels.
    public static let eegRate = 256.0
    /// The Muse EEG electrode labels.
    public static let eegLabels = ["TP9", "AF7", "AF8", "TP10"]

    /// The rate to use instead of the format's or the estimated one.
    public var nominalRate: Double?

    /// Creates a reader; `nominalRate` overrides the rate (must be finite and > 0).
    public init(nominalRate: Double? = nil) {
        precondition(nominalRate.map { $0.isFinite && $0 > 0 } ?? true, "a nominal rate must be finite and > 0")
        self.nominalRate = nominalRate
    }

    /// Reads a file.
    ///
    /// - Throws: ``RecordingError`` (`.cannotOpen`/`.readFailed` with errno, `.unsupportedFormat`,
    ///   `.missingHeader`, `.malformedRow`).
    /// - Complexity: O(file size).
    public func read(path: String) throws(RecordingError) -> Recording {
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path))
    }

    /// Reads a file's contents; `sourceName` names the data in the descriptor (`sourceID` `file:<sourceName>`).
    public func read(bytes: [UInt8], sourceName: String = "muse") throws(RecordingError) -> Recording {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) -> Recording in
            try parse(buffer, sourceName: sourceName)
        }
    }

    /// Whether a header row is a muse-lsl one: a `timestamps` column (muse-lsl writes it first; another order is
    /// taken too) and at least one more.
    static func isHeader(_ firstLine: String) -> Bool {
        let names = firstLine.split(separator: ",", omittingEmptySubsequences: false)
        return names.count >= 2 && names.contains { trimmed(String($0)).caseInsensitiveEquals("timestamps") }
    }

    private static func isMarkerColumn(_ name: String) -> Bool {
        let lower = name.lowercased()
        guard lower.hasPrefix("marker") else { return false }
        return lower.dropFirst("marker".count).allSatisfy(\.isNumber)
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, sourceName: String) throws(RecordingError) -> Recording {
        var cursor = LineCursor(bytes)
        guard let header = cursor.next(), Self.isHeader(cursor.text(of: header)) else {
            throw .unsupportedFormat(firstLine: LineCursor.firstLine(of: bytes))
        }
        let names = cursor.text(of: header).split(separator: ",", omittingEmptySubsequences: false)
            .map { trimmed(String($0)) }
        var roles = [ColumnRole](repeating: .ignored, count: names.count)
        let timeColumn = names.firstIndex { $0.caseInsensitiveEquals("timestamps") } ?? 0
        roles[timeColumn] = .timestamp
        var labels: [String] = []
        for (column, name) in names.enumerated() where column != timeColumn {
            if Self.isMarkerColumn(name) {
                roles[column] = .marker
            } else {
                roles[column] = .channel(labels.count)
                labels.append(name.isEmpty ? "column\(column + 1)" : name)
            }
        }
        guard !labels.isEmpty else {
            throw .missingHeader(line: header.number, expected: "at least one channel column after \"timestamps\"")
        }
        var rows = try DelimitedRows.parse(&cursor, columns: roles, names: names, channelCount: labels.count)
        if roles.filter({ $0 == .marker }).count > 1 {
            // Markers of several columns on one row were appended column by column; keep them in frame order.
            rows.markers.sort { $0.frame < $1.frame }
        }

        let isEEG = Self.eegLabels.allSatisfy { label in labels.contains { $0.caseInsensitiveEquals(label) } }
        let estimated = MeasuredRate(timestamps: rows.timestamps, nominal: Self.eegRate)
        let rate = nominalRate ?? (isEEG ? Self.eegRate : (estimated?.rate.rounded()).flatMap { $0 > 0 ? $0 : nil })
        guard let rate else {
            throw .missingHeader(
                line: header.number,
                expected: "timestamps that advance (a non-EEG muse-lsl file needs them to estimate its rate)")
        }
        var metadata = ["file": sourceName, "format": "muse-lsl CSV"]
        if let measured = MeasuredRate(timestamps: rows.timestamps, nominal: rate) {
            metadata["measuredRate"] = measured.formatted
            if let warning = measured.warning { rows.warnings.append(warning) }
        }
        let descriptor = StreamDescriptor(
            name: isEEG ? "Muse EEG" : "Muse", contentType: isEEG ? .eeg : StreamContentType("Muse"),
            channels: labels.map { ChannelInfo(label: $0, unit: isEEG ? "µV" : "") }, nominalRate: rate,
            format: .float32, sourceID: "file:\(sourceName)", metadata: metadata)
        return Recording(
            descriptor: descriptor, values: rows.values, timestamps: rows.timestamps, markers: rows.markers,
            warnings: rows.warnings, truncation: rows.truncation)
    }
}
