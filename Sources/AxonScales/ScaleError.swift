import AxonDevices
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

/// What is wrong with bytes that do not decode.
///
/// Threading: a value type; share freely.
public enum ScaleDataProblem: Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than the flags or the frame type require.
    case tooShort(needed: Int, got: Int)
    /// More bytes than the flags or the frame type account for.
    case tooLong(expected: Int, got: Int)
    /// Flag bits the specification reserves are set.
    case reservedFlags(UInt16)
    /// A frame type Axon's scale framing does not define.
    case unknownFrameType(UInt8)
    /// A field value outside its defined range (month 13, a user position of 40, …).
    case outOfRange(String)
    /// A continuation packet with no measurement to continue, or a measurement that never ended.
    case orphanContinuation

    /// A sentence for people.
    public var description: String {
        switch self {
        case .tooShort(let needed, let got): "\(got) bytes, needs \(needed)"
        case .tooLong(let expected, let got): "\(got) bytes, expected \(expected)"
        case .reservedFlags(let bits): "reserved flag bits set: 0x\(String(bits, radix: 16))"
        case .unknownFrameType(let type): "unknown frame type 0x\(String(type, radix: 16))"
        case .outOfRange(let what): what
        case .orphanContinuation: "a continuation packet without the packet it continues"
        }
    }
}

/// The HS5's user rules (seed §5.2–5.4): 20 positions 0…19, a new user only into an empty position and only while
/// fewer than 20 exist; modify and delete only a known user.
///
/// Threading: a value type; share freely.
public enum HS5UserRule: Sendable, Hashable, CustomStringConvertible {
    /// Already 20 users.
    case full
    /// The position holds a user.
    case positionOccupied(Int)
    /// Positions are 0…19.
    case positionOutOfRange(Int)
    /// No user with this serial number.
    case unknownUser(UInt32)
    /// A user with this serial number exists already (modify it instead).
    case alreadyExists(UInt32)

    /// The seed's error for the refusal: creation failures are `IHSCScaleCreateUserTestError` (15), an unknown user
    /// is `HS5UserInvalidate` (111).
    public var seedError: HS5Error {
        switch self {
        case .unknownUser: .userInvalid
        default: .createUserError
        }
    }

    /// The detail byte of an error frame (docs/scale-protocol.md).
    public var detail: UInt8 {
        switch self {
        case .full: 1
        case .positionOccupied: 2
        case .positionOutOfRange: 3
        case .unknownUser: 4
        case .alreadyExists: 5
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .full: "the scale already has 20 users"
        case .positionOccupied(let p): "position \(p) is occupied"
        case .positionOutOfRange(let p): "position \(p) is not in 0…19"
        case .unknownUser(let serial): "no user with serial number \(serial)"
        case .alreadyExists(let serial): "a user with serial number \(serial) exists already"
        }
    }
}

/// A firmware version such as 1.0.2, compared component by component.
///
/// Threading: a value type; share freely.
public struct FirmwareVersion: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The dotted numbers, most significant first.
    public var components: [Int]

    /// Parses "1.0.2" (digits and dots only); `nil` otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        components = parts.map { $0! }
    }

    /// major.minor.patch.
    public init(_ major: Int, _ minor: Int, _ patch: Int) { components = [major, minor, patch] }

    /// Compares component by component; missing components count as 0.
    public static func < (lhs: FirmwareVersion, rhs: FirmwareVersion) -> Bool {
        let n = max(lhs.components.count, rhs.components.count)
        for i in 0..<n {
            let a = i < lhs.components.count ? lhs.components[i] : 0
            let b = i < rhs.components.count ? rhs.components[i] : 0
            if a != b { return a < b }
        }
        return false
    }

    /// A sentence for people.
    public var description: String { components.map(String.init).joined(separator: ".") }

    /// HS3 Bluetooth on/off needs this (seed §3.2–3.3).
    public static let hs3BluetoothSwitch = FirmwareVersion(1, 0, 2)
}
