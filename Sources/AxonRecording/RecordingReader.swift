/// Reads a recording of any supported format, chosen from the file's first line (``RecordingFormat``).
///
///     let recording = try RecordingReader.read(path: "datasets/muse-p300/data.csv")
///     print(recording.descriptor.metadata["format"] ?? "", recording.frameCount, recording.sampleRate)
///
/// Threading: stateless; call from any thread, concurrently.
public enum RecordingReader {
    /// Reads and parses a file.
    ///
    /// - Throws: ``RecordingError``: `.cannotOpen`/`.readFailed` (with errno) when the file cannot be read,
    ///   `.unsupportedFormat` (with the first line) when no reader recognises it, otherwise the reader's errors.
    /// - Complexity: O(file size); the file is read once.
    public static func read(path: String) throws(RecordingError) -> Recording {
        // EDF/BDF go to EDFlib by path; the header tells it from the first 8 bytes.
        let (prefix, _) = try RecordingFile.readPrefix(path: path, count: 8)
        if EDFHeader.isSignature(prefix) { return try EDFFileReader().read(path: path) }
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path))
    }

    /// Parses a file's contents; `sourceName` names the data in the descriptor (`sourceID` `file:<sourceName>`).
    public static func read(bytes: [UInt8], sourceName: String) throws(RecordingError) -> Recording {
        switch try RecordingFormat.detect(bytes: bytes) {
        case .openBCIText: return try OpenBCITextReader().read(bytes: bytes, sourceName: sourceName)
        case .museCSV: return try MuseCSVReader().read(bytes: bytes, sourceName: sourceName)
        case .axonCSV: return try AxonCSVReader().read(bytes: bytes, sourceName: sourceName)
        case .edf, .bdf: return try EDFFileReader().read(bytes: bytes, sourceName: sourceName)
        case .xdf: return try XDFReader.read(bytes: bytes).recording(sourceName: sourceName)
        }
    }
}
