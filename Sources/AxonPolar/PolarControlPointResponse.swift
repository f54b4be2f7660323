/// The PMD control point's answer to a command, indicated as `F0 op type status [more parameters…]` (Polar's SDK,
/// `PmdControlPointResponse`): `more` and the parameters follow only on success.
///
///     let response = try PolarControlPointResponse(bytes: [0xF0, 0x02, 0x00, 0x00, 0x00])
///     // response.opCode == 2, response.measurement == 0, response.status == .success
///
/// Threading: a value type; share freely.
public struct PolarControlPointResponse: Sendable, Hashable {
    /// The op code answered.
    public var opCode: UInt8
    /// The measurement type byte answered (kept raw: an error may name a type Axon does not know).
    public var measurement: UInt8
    /// The outcome.
    public var status: PolarControlPointStatus
    /// Whether more parameters follow in another indication (success only).
    public var more: Bool
    /// The parameters (a settings answer's offered settings, a start's factor), success only.
    public var parameters: [UInt8]

    /// Parses an indication of the control point.
    ///
    /// - Throws: ``PolarError/malformedResponse(_:)`` for fewer than 4 bytes, a first byte other than `F0`, or a
    ///   status code Polar does not define.
    public init(bytes: [UInt8]) throws(PolarError) {
        guard bytes.count >= 4, bytes[0] == 0xF0 else { throw .malformedResponse(bytes) }
        guard let status = PolarControlPointStatus(rawValue: bytes[3]) else { throw .malformedResponse(bytes) }
        opCode = bytes[1]
        measurement = bytes[2]
        self.status = status
        if status == .success {
            more = bytes.count > 4 && bytes[4] != 0
            parameters = bytes.count > 5 ? Array(bytes[5...]) : []
        } else {
            more = false
            parameters = []
        }
    }

    /// Whether this answers `command` (same op code and measurement type).
    public func answers(_ command: PolarCommand) -> Bool {
        opCode == command.opCode && measurement == command.measurement.rawValue
    }
}

/// A control-point status code (Polar's SDK, `PmdControlPointResponseCode`).
///
/// Threading: a value type; share freely.
public enum PolarControlPointStatus: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// Done.
    case success = 0
    /// The op code is not one the strap knows.
    case invalidOpCode = 1
    /// The measurement type is not one the strap knows.
    case invalidMeasurementType = 2
    /// The strap does not support this.
    case notSupported = 3
    /// The command has the wrong length.
    case invalidLength = 4
    /// A parameter is malformed.
    case invalidParameter = 5
    /// Already started (or already stopped).
    case alreadyInState = 6
    /// The resolution is not offered.
    case invalidResolution = 7
    /// The sample rate is not offered.
    case invalidSampleRate = 8
    /// The range is not offered.
    case invalidRange = 9
    /// The link's MTU is too small.
    case invalidMTU = 10
    /// The channel count is not offered.
    case invalidNumberOfChannels = 11
    /// The strap is in a state where it cannot do this.
    case invalidState = 12
    /// The device is charging.
    case deviceInCharger = 13
    /// The device's memory is full.
    case diskFull = 14

    /// Polar's name for it, as a phrase.
    public var description: String {
        switch self {
        case .success: "success"
        case .invalidOpCode: "invalid op code"
        case .invalidMeasurementType: "invalid measurement type"
        case .notSupported: "not supported"
        case .invalidLength: "invalid length"
        case .invalidParameter: "invalid parameter"
        case .alreadyInState: "already in that state"
        case .invalidResolution: "invalid resolution"
        case .invalidSampleRate: "invalid sample rate"
        case .invalidRange: "invalid range"
        case .invalidMTU: "invalid MTU"
        case .invalidNumberOfChannels: "invalid number of channels"
        case .invalidState: "invalid state"
        case .deviceInCharger: "device in charger"
        case .diskFull: "disk full"
        }
    }
}
