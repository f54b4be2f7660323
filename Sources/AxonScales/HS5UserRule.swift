/// The HS5's user rules (seed §5.2–5.4): 20 positions 0…19, a new user only into an empty position that has never
/// been occupied and only while fewer than 20 exist; modify and delete only a known user.
///
/// Threading: a value type; share freely.
public enum HS5UserRule: Sendable, Hashable, CustomStringConvertible {
    /// Already 20 users.
    case full
    /// The position holds a user.
    case positionOccupied(Int)
    /// The position is empty but held a user once (deleted since): the seed allows only never-occupied positions.
    case positionUsedBefore(Int)
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
        case .positionUsedBefore: 6
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .full: "the scale already has 20 users"
        case .positionOccupied(let p): "position \(p) is occupied"
        case .positionUsedBefore(let p): "position \(p) held a user before; a new user needs a never-occupied one"
        case .positionOutOfRange(let p): "position \(p) is not in 0…19"
        case .unknownUser(let serial): "no user with serial number \(serial)"
        case .alreadyExists(let serial): "a user with serial number \(serial) exists already"
        }
    }
}
