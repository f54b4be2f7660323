import AxonStreams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What went wrong reading a recording or taking it apart. Every case says where (path, 1-based line number)
/// and what, in ``description``.
///
/// Equality and hashing compare ``description``: ``undecodableJSON(line:what:cause:)`` keeps the decoder's error as
/// a value.
///
/// Threading: a value type; share freely.
public enum RecordingError: Error, Sendable, EquatableByDescription {
    /// The file could not be opened (`errno`: `ENOENT` not found, `EACCES` no permission, …).
    case cannotOpen(path: String, errno: Int32)
    /// The file was opened but reading it failed (`EISDIR`, `EIO`, …).
    case readFailed(path: String, errno: Int32)
    /// The first line matches no format this module reads (an empty string for an empty file).
    case unsupportedFormat(firstLine: String)
    /// A header line or column the format requires is absent; `line` is where it was expected.
    case missingHeader(line: Int, expected: String)
    /// A header line is present but its value cannot be used.
    case malformedHeader(line: Int, reason: String)
    /// A header line's JSON (`what`: the stream descriptor) does not decode; `cause` is the decoder's error.
    case undecodableJSON(line: Int, what: String, cause: any Error)
    /// A data row that is not the file's last line cannot be read. (A broken *last* line is a truncated file:
    /// the readers keep the rows before it and report it in ``Recording/truncation`` instead of failing.)
    case malformedRow(line: Int, reason: String)
    /// A channel label that the recording does not have.
    case unknownChannel(label: String, available: [String])
    /// A label as the file wrote it that several channels share (made unique on reading, `EEG-0`, `EEG-1`).
    case ambiguousChannel(label: String, matches: [String])
    /// A time range that is empty, reversed, not finite or outside the recording (seconds from its first sample).
    case invalidSegment(from: Double, to: Double, duration: Double)
    /// An EDF/EDF+/BDF/BDF+ file (at `path`) cannot be read; ``EDFProblem`` says where and why.
    case edf(path: String, problem: EDFProblem)
    /// A BrainVision recording (its header at `path`, or the marker or data file it names) cannot be read;
    /// ``BrainVisionProblem`` says where and why.
    case brainVision(path: String, problem: BrainVisionProblem)
    /// The contents are a `format` whose data lives in other files named relative to the file's folder (a
    /// BrainVision `.vhdr` names its `.eeg` and `.vmrk`): read it by path (``RecordingReader/read(path:options:)``).
    case needsPath(format: RecordingFormat, sourceName: String)
    /// A FIF file (at `path`) cannot be read; ``FIFProblem`` says where and why.
    case fif(path: String, problem: FIFProblem)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let code):
            return "cannot open \(path): \(Self.message(forErrno: code)) (errno \(code))"
        case .readFailed(let path, let code):
            return "cannot read \(path): \(Self.message(forErrno: code)) (errno \(code))"
        case .unsupportedFormat(let firstLine):
            // A binary file's bytes never reach the terminal: anything but printable ASCII is shown as `\xNN`.
            let printable = firstLine.utf8.prefix(40).map { byte in
                (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\\")
                    ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }.joined()
            let shown = printable + (firstLine.utf8.count > 40 ? "…" : "")
            return "unsupported recording format: the first line is \"\(shown)\"; expected an OpenBCI GUI text file "
                + "(\"%OpenBCI Raw EXG Data\"), a muse-lsl CSV (\"timestamps,TP9,…\"), "
                + "an Axon CSV (\"# axon-csv 1\"), an EDF/BDF file (\"0       \" or \"\\xFFBIOSEMI\"), "
                + "a BrainVision header (\"Brain Vision Data Exchange Header File Version 1.0\") or a FIF file"
        case .missingHeader(let line, let expected):
            return "line \(line): missing header: expected \(expected)"
        case .malformedHeader(let line, let reason):
            return "line \(line): malformed header: \(reason)"
        case .undecodableJSON(let line, let what, let cause):
            return "line \(line): malformed header: \(what) does not decode: \(cause)"
        case .malformedRow(let line, let reason):
            return "line \(line): malformed row: \(reason)"
        case .unknownChannel(let label, let available):
            return "no channel \"\(label)\"; available: \(available.joined(separator: ", "))"
        case .ambiguousChannel(let label, let matches):
            return "\"\(label)\" is the label of \(matches.count) channels, named \(matches.joined(separator: ", ")) "
                + "here (duplicates are made unique as MNE-Python does): name one of those"
        case .invalidSegment(let from, let to, let duration):
            return "invalid segment \(from)–\(to) s: the recording lasts \(duration) s (times count from its first "
                + "sample; the start must be ≥ 0 and before the end)"
        case .edf(let path, let problem):
            return "\(path): \(problem)"
        case .brainVision(let path, let problem):
            return "\(path): \(problem)"
        case .fif(let path, let problem):
            return "\(path): \(problem)"
        case .needsPath(let format, let sourceName):
            return "\(sourceName): a \(format) file names its data files relative to its own folder, so it can only be "
                + "read from a path, not from bytes alone"
        }
    }

    private static func message(forErrno code: Int32) -> String {
        // strerror never returns NULL on glibc or Darwin; it returns "Unknown error N" for unknown codes.
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
