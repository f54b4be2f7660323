/// A command written to the PMD control point (Polar's SDK, `PmdControlPointCommandClientToService`): an op code,
/// the measurement type, and for a start the settings.
///
///     PolarCommand.start(.ecg, .h10ECG).bytes()          // 02 00 00 01 82 00 01 01 0E 00
///     PolarCommand.start(.accelerometer, .h10Accelerometer()).bytes()
///                                                         // 02 02 00 01 C8 00 01 01 10 00 02 01 08 00
///     PolarCommand.stop(.ecg).bytes()                    // 03 00
///
/// Threading: a value type; share freely.
public enum PolarCommand: Sendable, Hashable {
    /// `01 TYPE`: the settings the strap offers for a measurement.
    case settings(PolarMeasurementType)
    /// `02 TYPE SETTINGS`: start streaming a measurement (online, not to the strap's memory).
    case start(PolarMeasurementType, PolarSettings)
    /// `03 TYPE`: stop it.
    case stop(PolarMeasurementType)

    /// The op code: 1, 2 or 3.
    public var opCode: UInt8 {
        switch self {
        case .settings: 0x01
        case .start: 0x02
        case .stop: 0x03
        }
    }

    /// The measurement the command is about.
    public var measurement: PolarMeasurementType {
        switch self {
        case .settings(let type), .start(let type, _), .stop(let type): type
        }
    }

    /// The bytes to write, after checking a start's settings against the H10's (``PolarSettings/validate(for:)``).
    public func bytes() throws(PolarError) -> [UInt8] {
        switch self {
        case .settings(let type), .stop(let type):
            return [opCode, type.rawValue]
        case .start(let type, let settings):
            try settings.validate(for: type)
            return [opCode, type.rawValue] + settings.bytes
        }
    }
}
