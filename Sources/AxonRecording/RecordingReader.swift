/// Reads a recording of any supported format, chosen from the file's first line (``RecordingFormat``).
///
///     let recording = try RecordingReader.read(path: "datasets/muse-p300/data.csv")
///     print(recording.descriptor.metadata["format"] ?? "", recording.frameCount, recording.sampleRate)
///
/// Threading: stateless; call from any thread, concurrently.
public enum RecordingReader {
    /// What the file alone cannot say: the board of a BrainFlow file (``BrainFlowCSVReader``; `nil` decides from
    /// the column count); and what to keep: a BDF's BioSemi Status channel as a raw channel besides its markers
    /// (``EDFFileReader/keepsStatusChannel``). Threading: a value type.
    public struct Options: Sendable, Equatable {
        /// The board a BrainFlow-format file was recorded from.
        public var brainFlowBoard: BrainFlowBoard?
        /// Whether a BDF's `Status` channel is kept as a channel of raw 24-bit Status words.
        public var keepsStatusChannel: Bool

        /// Creates options.
        public init(brainFlowBoard: BrainFlowBoard? = nil, keepsStatusChannel: Bool = false) {
            self.brainFlowBoard = brainFlowBoard
            self.keepsStatusChannel = keepsStatusChannel
        }
    }

    /// Reads and parses a file.
    ///
    /// - Throws: ``RecordingError``: `.cannotOpen`/`.readFailed` (with errno) when the file cannot be read,
    ///   `.unsupportedFormat` (with the first line) when no reader recognises it, otherwise the reader's errors.
    /// - Complexity: O(file size); the file is read once.
    public static func read(path: String, options: Options = Options()) throws(RecordingError) -> Recording {
        // EDF/BDF go to EDFlib by path; the header tells it from the first 8 bytes. A BrainVision header names its
        // other files relative to its folder, so it is read by path too.
        let (prefix, _) = try RecordingFile.readPrefix(path: path, count: 128)
        if EDFHeader.isSignature(prefix) {
            return try EDFFileReader(keepsStatusChannel: options.keepsStatusChannel).read(path: path)
        }
        if BrainVisionReader.isHeader(prefix) { return try BrainVisionReader().read(path: path) }
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path), options: options)
    }

    /// Parses a file's contents; `sourceName` names the data in the descriptor (`sourceID` `file:<sourceName>`).
    ///
    /// - Throws: as ``read(path:options:)``; ``RecordingError/needsPath(format:sourceName:)`` for a BrainVision
    ///   header, whose data and markers are in files named relative to its folder.
    public static func read(bytes: [UInt8], sourceName: String, options: Options = Options()) throws(RecordingError)
        -> Recording
    {
        switch try RecordingFormat.detect(bytes: bytes) {
        case .openBCIText: return try OpenBCITextReader().read(bytes: bytes, sourceName: sourceName)
        case .openBCILegacyText: return try OpenBCILegacyTextReader().read(bytes: bytes, sourceName: sourceName)
        case .brainFlowCSV:
            return try BrainFlowCSVReader(board: options.brainFlowBoard).read(bytes: bytes, sourceName: sourceName)
        case .museCSV: return try MuseCSVReader().read(bytes: bytes, sourceName: sourceName)
        case .mindMonitorCSV: return try MindMonitorCSVReader().read(bytes: bytes, sourceName: sourceName).recording
        case .axonCSV: return try AxonCSVReader().read(bytes: bytes, sourceName: sourceName)
        case .edf, .bdf:
            return try EDFFileReader(keepsStatusChannel: options.keepsStatusChannel).read(
                bytes: bytes, sourceName: sourceName)
        case .xdf: return try XDFReader.read(bytes: bytes).recording(sourceName: sourceName)
        case .brainVision: throw .needsPath(format: .brainVision, sourceName: sourceName)
        case .fif: return try FIFReader().read(bytes: bytes, sourceName: sourceName)
        }
    }
}
