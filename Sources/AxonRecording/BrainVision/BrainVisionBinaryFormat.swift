/// How a BrainVision data file (`.eeg`) codes one sample: `[Binary Infos] BinaryFormat=` in the header.
///
/// A sample's value in the channel's unit is the coded number × the channel's resolution (`Ch<n>=…,<resolution>,…`).
///
/// Threading: a value type; share freely.
public enum BrainVisionBinaryFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Signed 16-bit integers, little-endian (unless the header says `UseBigEndianOrder=YES`).
    case int16 = "INT_16"
    /// Signed 32-bit integers.
    case int32 = "INT_32"
    /// IEEE 754 single-precision floats.
    case float32 = "IEEE_FLOAT_32"

    /// Bytes per sample.
    public var width: Int { self == .int16 ? 2 : 4 }

    /// The header's spelling (`INT_16`).
    public var description: String { rawValue }
}
