import AxonStreams

/// Reads the raw recordings MNE-Python saves (`Raw.save`, `*_raw.fif`) and Elekta/Neuromag systems write: FIF, the
/// Functional Imaging File Format, a stream of big-endian tags (kind, type, size, next, data) grouped in blocks.
///
/// What the reader keeps:
///
/// | in the file | in the ``Recording`` |
/// |---|---|
/// | `FIFFB_MEAS_INFO`: `FIFF_NCHAN`, `FIFF_SFREQ` | channels, rate |
/// | `FIFF_CH_INFO` (96 bytes: scan and logical number, kind, range, cal, coil, location, unit, unit multiplier, 16-byte name) | a channel: label the name (the full name from the channel's `FIFFB_CH_INFO` block's `FIFF_CH_DACQ_NAME`, where MNE-Python keeps names longer than 15 characters); unit from the unit code (`V` channels are given in `µV`, Axon's unit for EEG, except a stimulus channel, whose values are trigger codes without a unit; `T`, `T/m`, … as SI; no unit `""`); `metadata["fif.kind.<label>"]` the kind (`eeg`, `stim`, `misc`, `meg`, …) when the channels' kinds differ, else `metadata["fif.kind"]` |
/// | `FIFFB_RAW_DATA` / `FIFFB_CONTINUOUS_DATA`: `FIFF_DATA_BUFFER`s of float32, int16 (also packed), int32 or float64, channel-fastest | values = stored × range × cal (MNE-Python's `get_data()`), × 10⁶ for `V` channels other than stimulus ones |
/// | `FIFF_DATA_SKIP` (buffers) and `FIFF_DATA_SKIP_SAMP` (samples) between buffers | a ``RecordingGap`` of that many samples (MNE-Python fills them with zeros; Axon keeps the samples it has); a skip before the first buffer moves the start |
/// | `FIFF_FIRST_SAMPLE`, `FIFF_MEAS_DATE` (seconds, microseconds) | ``Recording/timestamps``: date + (first sample + frame + samples skipped before it) ÷ rate; none without a date |
/// | `FIFFB_SUBJECT` (names, birthday, sex, hospital id, …), `FIFF_EXPERIMENTER`, `FIFF_DESCRIPTION` | `metadata["fif.subject.<field>"]`, `["fif.experimenter"]`, `["fif.description"]`: not technical, so an ``Anonymization`` drops them, and `axon info --identifiers` lists them |
/// | `FIFFB_MNE_ANNOTATIONS` (onsets, ends, descriptions) | ``Recording/markers`` at onset × rate − first sample; text the description |
///
/// Every other tag is stepped over by its `size` (or followed through its `next` pointer, checked to lie inside
/// the file and never to come back to a tag already read); nothing is allocated beyond what the file holds.
/// Damage: a file cut inside a tag after some data buffers keeps the buffers before the cut, with a warning
/// (``keepsCompleteBuffers``; off, or when the cut comes before any data, it throws
/// ``FIFProblem/truncated(tagOffset:needed:fileSize:)``). A recording split over several files (MNE-Python splits at
/// 2 GB) is read one file at a time, with a warning that it continues.
///
///     let raw = try FIFReader().read(path: "sample_raw.fif")
///     raw.channelLabels, raw.sampleRate             // ["Fp1", …, "STI 014"], 250
///     raw.descriptor.channels[0].unit               // "µV"
///
/// Threading: an immutable value; `read` may be called from any thread, concurrently.
public struct FIFReader: Sendable {
    /// Whether a file cut inside a tag is read up to its last complete data buffer (with a warning). `false`:
    /// such a file throws ``FIFProblem/truncated(tagOffset:needed:fileSize:)``.
    public var keepsCompleteBuffers: Bool

    /// Creates a reader; see ``keepsCompleteBuffers``.
    public init(keepsCompleteBuffers: Bool = true) {
        self.keepsCompleteBuffers = keepsCompleteBuffers
    }

    /// Whether `bytes` start with a FIF file-id tag: kind 100 (`FIFF_FILE_ID`), type 31 (`FIFFT_ID_STRUCT`), size 20,
    /// big-endian.
    public static func isSignature(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && Array(bytes[0..<12]) == [0, 0, 0, 100, 0, 0, 0, 31, 0, 0, 0, 20]
    }

    /// Reads a file.
    ///
    /// - Throws: ``RecordingError``: `.cannotOpen`/`.readFailed` (with errno), `.fif(path:problem:)` for everything
    ///   else.
    /// - Complexity: O(file size); the file is read once and the samples allocated once.
    public func read(path: String) throws(RecordingError) -> Recording {
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path), errorPath: path)
    }

    /// Parses a file's contents; `sourceName` names the data (`sourceID` `file:<sourceName>`).
    ///
    /// - Throws: ``RecordingError/fif(path:problem:)`` naming `sourceName`.
    public func read(bytes: [UInt8], sourceName: String = "fif") throws(RecordingError) -> Recording {
        try read(bytes: bytes, sourceName: sourceName, errorPath: sourceName)
    }

    private func read(bytes: [UInt8], sourceName: String, errorPath: String) throws(RecordingError) -> Recording {
        // withUnsafeBytes rethrows untyped: the problem travels in a Result.
        let outcome = bytes.withUnsafeBytes { raw in
            Result { () throws(FIFProblem) -> Recording in
                var parse = FIFParse(bytes: FIFBytes(bytes: raw), keepsCompleteBuffers: keepsCompleteBuffers)
                try parse.walk()
                return try parse.recording(sourceName: sourceName)
            }
        }
        switch outcome {
        case .success(let recording): return recording
        case .failure(let problem): throw .fif(path: errorPath, problem: problem)
        }
    }
}
