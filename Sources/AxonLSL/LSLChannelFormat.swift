import AxonStreams

/// liblsl's channel formats (`lsl_channel_format_t`), and how they map onto Axon's ``AxonStreams/SampleFormat``.
///
/// Threading: a value type; share freely.
public enum LSLChannelFormat: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `cft_float32`.
    case float32 = 1
    /// `cft_double64`.
    case double64 = 2
    /// `cft_string`.
    case string = 3
    /// `cft_int32`.
    case int32 = 4
    /// `cft_int16`.
    case int16 = 5
    /// `cft_int8`.
    case int8 = 6
    /// `cft_int64`.
    case int64 = 7

    /// The Axon format that keeps every value of this one.
    public var sampleFormat: SampleFormat {
        switch self {
        case .float32: return .float32
        case .double64: return .float64
        case .string: return .string
        case .int32: return .int32
        case .int16, .int8: return .int16
        case .int64: return .int64
        }
    }

    /// The LSL format an outlet uses for a stream of this Axon format. Axon's samples are physical values
    /// (µV, not ADC counts), so integer device formats are published as floating point wide enough to keep them:
    /// float32 for 16- and 24-bit devices, double64 for 32- and 64-bit ones; `event` payloads travel as text.
    public init(_ format: SampleFormat) {
        switch format {
        case .float32, .int16, .int24: self = .float32
        case .float64, .int32, .int64: self = .double64
        case .string, .event: self = .string
        }
    }

    /// liblsl's spelling (as in XDF stream headers: `float32`, `double64`, `string`, …).
    public var description: String {
        switch self {
        case .float32: return "float32"
        case .double64: return "double64"
        case .string: return "string"
        case .int32: return "int32"
        case .int16: return "int16"
        case .int8: return "int8"
        case .int64: return "int64"
        }
    }
}
