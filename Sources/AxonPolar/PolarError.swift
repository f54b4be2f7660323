import AxonDevices

/// What went wrong with a Polar strap: a command refused before or by the strap, an answer that did not come or
/// cannot be read, or the link.
///
/// Threading: a value type; share freely.
public enum PolarError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Settings the H10 does not offer, caught before anything was sent.
    case invalidSettings(PolarMeasurementType, String)
    /// The control point answered the command with an error status.
    case refused(PolarCommand, PolarControlPointStatus)
    /// No answer to the command within the time allowed (seconds).
    case noResponse(PolarCommand, seconds: Double)
    /// An indication of the control point that is not a PMD response.
    case malformedResponse([UInt8])
    /// The features read from the control point do not include a measurement the source needs.
    case notOffered(PolarMeasurementType, features: [UInt8])
    /// The transport failed.
    case transport(TransportError)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalidSettings(let type, let why): return "\(type) settings: \(why)"
        case .refused(let command, let status):
            return "the strap refused \(Self.hex((try? command.bytes()) ?? [command.opCode])): \(status)"
        case .noResponse(let command, let seconds):
            return "no answer to \(Self.hex((try? command.bytes()) ?? [command.opCode])) within \(seconds) s"
        case .malformedResponse(let bytes): return "not a PMD control-point response: \(Self.hex(bytes))"
        case .notOffered(let type, let features):
            return "the strap does not offer \(type) (features \(Self.hex(features)))"
        case .transport(let error): return "\(error)"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
            .joined(separator: " ")
    }
}

/// Why a PMD data frame was rejected (counted in ``PolarDecoderStatistics``; nothing of it is written).
///
/// Threading: a value type; share freely.
public enum PolarFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Shorter than the 10-byte header (type, timestamp, frame type).
    case tooShort(Int)
    /// A measurement type this decoder does not read.
    case unsupportedMeasurement(UInt8)
    /// A frame type (bit 7: compressed) this decoder does not read for the measurement.
    case unsupportedFrameType(PolarMeasurementType, UInt8)
    /// The samples do not fill the frame: `bytes` after the header is not a whole number of `sampleSize`.
    case partialSample(bytes: Int, sampleSize: Int)
    /// A header with no samples after it.
    case noSamples
    /// A compressed (delta) frame whose blocks run past its end or are malformed.
    case malformedDeltaFrame(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .tooShort(let count): return "a PMD data frame has at least 10 bytes, this one \(count)"
        case .unsupportedMeasurement(let type): return "PMD measurement type \(type) is not decoded"
        case .unsupportedFrameType(let type, let frameType):
            return "\(type) frame type 0x\(String(frameType, radix: 16)) is not decoded"
        case .partialSample(let bytes, let size): return "\(bytes) sample bytes are not whole \(size)-byte samples"
        case .noSamples: return "a PMD data frame without samples"
        case .malformedDeltaFrame(let why): return "malformed compressed frame: \(why)"
        }
    }
}
