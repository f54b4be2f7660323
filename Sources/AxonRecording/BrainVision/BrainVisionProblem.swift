/// What is wrong with a BrainVision recording (a `.vhdr` header, its `.vmrk` markers and its `.eeg` data), as
/// ``RecordingError/brainVision(path:problem:)`` reports it: the file, line and key at fault.
///
/// Threading: a value type; share freely.
public enum BrainVisionProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The header's first line is not `Brain Vision Data Exchange Header File Version 1.0` (or the 2.0 spelling
    /// `BrainVision Data Exchange Header File Version 2.0`); `firstLine` is what is there.
    case notAHeader(firstLine: String)
    /// A key the format requires is absent from its section (`[Common Infos]` `DataFile`, `NumberOfChannels`,
    /// `SamplingInterval`; `[Binary Infos]` `BinaryFormat`; `[Channel Infos]` `Ch<n>` for every channel).
    case missingKey(section: String, key: String)
    /// A key's value cannot be used; `line` is its 1-based line in the file.
    case badValue(line: Int, key: String, value: String, reason: String)
    /// A value this reader knows but does not read (`DataFormat=ASCII`, `BinaryFormat=UINT_16`, a
    /// `DataType` other than `TIMEDOMAIN`), with the values it does read.
    case unsupported(key: String, value: String, supported: [String])
    /// The data file ends inside a frame (or, for `VECTORIZED` data, before the last channel's last sample):
    /// `expectedBytes` by the header (or the next whole frame), `actualBytes` present, `completeFrames` whole.
    case truncated(expectedBytes: Int, actualBytes: Int, completeFrames: Int)
    /// The data file holds no complete frame.
    case noData(bytes: Int)
    /// A marker line (`Mk<n>=<type>,<description>,<position>,<size>,<channel>[,<date>]`) of the marker file cannot
    /// be read.
    case badMarker(line: Int, text: String, reason: String)

    /// A phrase for people.
    public var description: String {
        switch self {
        case .notAHeader(let firstLine):
            return "not a BrainVision header: the first line is \"\(firstLine.prefix(80))\", expected \"Brain Vision "
                + "Data Exchange Header File Version 1.0\" (or \"BrainVision … Version 2.0\")"
        case .missingKey(let section, let key):
            return "[\(section)] has no \(key)="
        case .badValue(let line, let key, let value, let reason):
            return "line \(line): \(key)=\(value.prefix(80)): \(reason)"
        case .unsupported(let key, let value, let supported):
            return "\(key)=\(value.prefix(80)) is not read; supported: \(supported.joined(separator: ", "))"
        case .truncated(let expected, let actual, let complete):
            return "data file truncated: \(actual) bytes of the \(expected) expected; \(complete) complete frames"
        case .noData(let bytes):
            return "the data file holds no complete frame (\(bytes) bytes)"
        case .badMarker(let line, let text, let reason):
            return "marker file line \(line) \"\(text.prefix(80))\": \(reason)"
        }
    }
}
