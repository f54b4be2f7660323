/// The recording file formats this module reads, recognised by their first line.
///
/// | format | first line |
/// |---|---|
/// | ``openBCIText`` | `%OpenBCI Raw EXG Data` |
/// | ``openBCILegacyText`` | `%OpenBCI Raw EEG Data` (GUI v1–v4, 2014–2019) |
/// | ``brainFlowCSV`` | a row of at least 4 tab-separated numbers (no header) |
/// | ``museCSV`` | a CSV header with a `timestamps` column (muse-lsl writes it first) |
/// | ``mindMonitorCSV`` | a CSV header with a `TimeStamp` column and a `RAW_TP9` or `Delta_TP9` one |
/// | ``axonCSV`` | `# axon-csv 1` (``AxonCSVFormat``) |
/// | ``edf`` | the 8 bytes `0       ` (EDF, EDF+) |
/// | ``bdf`` | the 8 bytes `\u{FF}BIOSEMI` (BDF, BDF+) |
/// | ``xdf`` | the 4 bytes `XDF:` (XDF 1.0, LabRecorder's multi-stream format) |
/// | ``fif`` | a FIF file-id tag: kind 100, type 31, size 20 (big-endian int32s) |
/// | ``brainVision`` | `Brain Vision Data Exchange Header File Version 1.0` (or `BrainVision … Version 2.0`): a `.vhdr` |
///
/// Threading: a value type; share freely.
public enum RecordingFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// OpenBCI GUI text ("OpenBCI Raw EXG Data"); read by ``OpenBCITextReader``.
    case openBCIText
    /// The older OpenBCI GUI text ("OpenBCI Raw EEG Data"); read by ``OpenBCILegacyTextReader``.
    case openBCILegacyText
    /// BrainFlow's tab-separated rows (the OpenBCI GUI's `BrainFlow-RAW_*.csv`); read by ``BrainFlowCSVReader``.
    case brainFlowCSV
    /// muse-lsl CSV; read by ``MuseCSVReader``.
    case museCSV
    /// Mind Monitor's CSV export; read by ``MindMonitorCSVReader``.
    case mindMonitorCSV
    /// Axon's own CSV; read by ``AxonCSVReader``.
    case axonCSV
    /// EDF or EDF+; read by ``EDFFileReader``.
    case edf
    /// BDF or BDF+; read by ``EDFFileReader``.
    case bdf
    /// XDF; read by ``XDFReader``.
    case xdf
    /// A BrainVision header (`.vhdr`) naming its data (`.eeg`) and marker (`.vmrk`) files; read by
    /// ``BrainVisionReader`` from a path only.
    case brainVision
    /// FIF (`*_raw.fif`, what MNE-Python's `Raw.save` writes); read by ``FIFReader``.
    case fif

    /// The format whose first line this is (BOM, line ending and surrounding spaces ignored), or `nil`.
    public static func detect(firstLine: String) -> RecordingFormat? {
        var line = Substring(firstLine)
        if line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
        while let last = line.last, last == "\r" || last == "\n" { line = line.dropLast() }
        let text = trimmed(String(line))
        if text == OpenBCITextReader.signature { return .openBCIText }
        if text == OpenBCILegacyTextReader.signature { return .openBCILegacyText }
        if MuseCSVReader.isHeader(text) { return .museCSV }
        if MindMonitorCSVReader.isHeader(text) { return .mindMonitorCSV }
        if BrainFlowCSVReader.isRow(text) { return .brainFlowCSV }
        if text == AxonCSVFormat.signature { return .axonCSV }
        if text.hasPrefix("0       ") { return .edf }
        if text.hasPrefix("\u{FFFD}BIOSEMI") || text.hasPrefix("\u{FF}BIOSEMI") { return .bdf }
        if BrainVisionText.isVersionLine(text, kind: "Header") { return .brainVision }
        return nil
    }

    /// The format of a file's contents.
    ///
    /// - Throws: ``RecordingError/unsupportedFormat(firstLine:)`` with the first line when no format matches.
    /// - Complexity: O(length of the first line).
    public static func detect(bytes: [UInt8]) throws(RecordingError) -> RecordingFormat {
        if EDFHeader.isSignature(bytes) { return bytes[0] == 0xFF ? .bdf : .edf }
        if XDFReader.isSignature(bytes) { return .xdf }
        if FIFReader.isSignature(bytes) { return .fif }
        let first = bytes.withUnsafeBufferPointer { LineCursor.firstLine(of: $0) }
        guard let format = detect(firstLine: first) else { throw .unsupportedFormat(firstLine: first) }
        return format
    }

    /// A name for people.
    public var description: String {
        switch self {
        case .openBCIText: return "OpenBCI GUI text"
        case .openBCILegacyText: return "OpenBCI GUI v1–v4 text"
        case .brainFlowCSV: return "BrainFlow CSV"
        case .museCSV: return "muse-lsl CSV"
        case .mindMonitorCSV: return "Mind Monitor CSV"
        case .axonCSV: return "Axon CSV"
        case .edf: return "EDF/EDF+"
        case .bdf: return "BDF/BDF+"
        case .xdf: return "XDF"
        case .brainVision: return "BrainVision"
        case .fif: return "FIF"
        }
    }
}
