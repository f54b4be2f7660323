import AxonDevices
import AxonEventStore
import AxonRecording

/// Everything a scale session, decoder or simulator can fail with. Each case says what and why in
/// ``description``.
///
/// Threading: a value type; share freely.
public enum ScaleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The scale reported one of the SDK's error codes (low battery, overload, movement, no memory, …).
    case device(ScaleDeviceError)
    /// An HS5 refused a user-management request; the rule says why, ``HS5UserRule/seedError`` gives the code.
    case userRule(HS5UserRule)
    /// The user validator refused the user (one of the SDK's four failing results).
    case validationFailed(UserValidationResult)
    /// An HS3 or HS4 was asked to measure before a user was validated: the seed measures only after a validation
    /// result of 1–4 (``ScaleSession/validate(_:)`` first).
    case userNotValidated(model: ScaleModel)
    /// A command the model's firmware does not have yet (HS3 Bluetooth on/off before 1.0.2).
    case firmwareTooOld(required: FirmwareVersion, actual: FirmwareVersion)
    /// The model has no such operation (a memory transfer from a standard scale, users on an HS3, …).
    case unsupported(model: ScaleModel, operation: String)
    /// Bytes from the device (or a file) that do not decode: which data and what is wrong with it.
    case malformed(what: String, problem: ScaleDataProblem)
    /// A value the caller passed is out of range (a position beyond 19, a negative weight, …).
    case invalidArgument(String)
    /// A standard scale reported its measurement unsuccessful (weight 0xFFFF).
    case measurementUnsuccessful
    /// The device did not answer a command in time.
    case noResponse(command: String, seconds: Double)
    /// The link failed.
    case transport(TransportError)
    /// The event store failed; nothing was reported as stored.
    case store(EventStoreError)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .device(let error): error.description
        case .userRule(let rule): "\(rule) (HS5 error \(rule.seedError.rawValue): \(rule.seedError.meaning))"
        case .validationFailed(let result): "user validation failed: \(result)"
        case .userNotValidated(let model):
            "an \(model.rawValue.uppercased()) measures only for a validated user: validate the user first"
        case .firmwareTooOld(let required, let actual): "needs firmware \(required) or later; the scale has \(actual)"
        case .unsupported(let model, let operation): "\(model) scales cannot \(operation)"
        case .malformed(let what, let problem): "malformed \(what): \(problem)"
        case .invalidArgument(let why): why
        case .measurementUnsuccessful: "the scale reported the measurement unsuccessful"
        case .noResponse(let command, let seconds): "no answer to \(command) within \(seconds) s"
        case .transport(let error): "link: \(error)"
        case .store(let error): "event store: \(error)"
        }
    }
}
