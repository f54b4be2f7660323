/// Axon's scale framing (docs/scale-protocol.md): commands the host writes to the command characteristic, and
/// the frames the scale notifies on the response characteristic. One frame per GATT value; byte 0 is the type,
/// multi-byte fields are little-endian. Used by the simulated HS3/HS4/HS5 (Swift and mock bluetoothd).
///
/// Threading: value types; encoding and decoding are pure functions.
public enum ScaleCommand: Sendable, Hashable {
    /// 0x01: which model and firmware are you.
    case identify
    /// 0x02: the user-validation result for the user on the scale (raw value index of ``UserValidationResult``).
    case authorise(UserValidationResult)
    /// 0x03: measure, showing `unit`, for the HS5 user `serialNumber` (0 for HS3/HS4).
    case measure(unit: WeightUnit, serialNumber: UInt32)
    /// 0x04: send stored records from index `from` on, for the HS5 user `serialNumber` (0 otherwise).
    case memory(from: Int, serialNumber: UInt32)
    /// 0x05: HS3 Bluetooth connection on (`true`) or off.
    case bluetooth(on: Bool)
    /// 0x10: list the users.
    case listUsers
    /// 0x11: create `user` at `position`.
    case createUser(HS5User, position: Int)
    /// 0x12: modify the user with `user.serialNumber`.
    case modifyUser(HS5User)
    /// 0x13: delete the user with this serial number.
    case deleteUser(UInt32)

    /// The frame type byte.
    public var type: UInt8 {
        switch self {
        case .identify: 0x01
        case .authorise: 0x02
        case .measure: 0x03
        case .memory: 0x04
        case .bluetooth: 0x05
        case .listUsers: 0x10
        case .createUser: 0x11
        case .modifyUser: 0x12
        case .deleteUser: 0x13
        }
    }

    /// A name for messages.
    public var name: String {
        switch self {
        case .identify: "identify"
        case .authorise: "authorise"
        case .measure: "measure"
        case .memory: "memory transfer"
        case .bluetooth: "Bluetooth on/off"
        case .listUsers: "list users"
        case .createUser: "create user"
        case .modifyUser: "modify user"
        case .deleteUser: "delete user"
        }
    }

    /// The bytes written to the command characteristic.
    public var bytes: [UInt8] {
        var out = [type]
        switch self {
        case .identify, .listUsers: break
        case .authorise(let result): out.append(UInt8(UserValidationResult.allCases.firstIndex(of: result)!))
        case .measure(let unit, let serial):
            out.append(unit.code)
            out.appendLE(serial)
        case .memory(let from, let serial):
            out.appendLE(UInt16(clamping: from))
            out.appendLE(serial)
        case .bluetooth(let on): out.append(on ? 1 : 0)
        case .createUser(let user, let position):
            out.append(UInt8(clamping: position))
            out += Self.userBytes(user)
        case .modifyUser(let user): out += Self.userBytes(user)
        case .deleteUser(let serial): out.appendLE(serial)
        }
        return out
    }

    /// Decodes a command (the scale's side).
    ///
    /// - Throws: ``ScaleError/malformed(what:problem:)`` for an unknown type, a wrong length or a field out of
    ///   range.
    public init(decoding bytes: [UInt8]) throws(ScaleError) {
        var r = ByteReader(bytes, what: "scale command")
        let type = try r.uint8()
        switch type {
        case 0x01: self = .identify
        case 0x02:
            let index = Int(try r.uint8())
            guard index < UserValidationResult.allCases.count else {
                throw .malformed(what: r.what, problem: .outOfRange("validation result \(index)"))
            }
            self = .authorise(UserValidationResult.allCases[index])
        case 0x03:
            let code = try r.uint8()
            guard let unit = WeightUnit(code: code) else {
                throw .malformed(what: r.what, problem: .outOfRange("unit \(code)"))
            }
            self = .measure(unit: unit, serialNumber: try r.uint32())
        case 0x04: self = .memory(from: Int(try r.uint16()), serialNumber: try r.uint32())
        case 0x05:
            let on = try r.uint8()
            guard on <= 1 else { throw .malformed(what: r.what, problem: .outOfRange("switch \(on)")) }
            self = .bluetooth(on: on == 1)
        case 0x10: self = .listUsers
        case 0x11:
            let position = Int(try r.uint8())
            self = .createUser(try Self.readUser(&r), position: position)
        case 0x12: self = .modifyUser(try Self.readUser(&r))
        case 0x13: self = .deleteUser(try r.uint32())
        default: throw .malformed(what: r.what, problem: .unknownFrameType(type))
        }
        try r.requireEnd()
    }

    /// serial u32, birth year u16, month, day, height cm, athlete 0/1, sex 0/1: 11 bytes.
    static func userBytes(_ user: HS5User) -> [UInt8] {
        var out: [UInt8] = []
        out.appendLE(user.serialNumber)
        out.appendLE(UInt16(clamping: user.birthYear))
        out += [UInt8(clamping: user.birthMonth), UInt8(clamping: user.birthDay), UInt8(clamping: user.heightCM)]
        out += [user.isAthlete ? 1 : 0, user.sex.rawValue]
        return out
    }

    static func readUser(_ r: inout ByteReader) throws(ScaleError) -> HS5User {
        let serial = try r.uint32()
        let year = Int(try r.uint16())
        let month = Int(try r.uint8()), day = Int(try r.uint8()), height = Int(try r.uint8())
        let athlete = try r.uint8(), sexCode = try r.uint8()
        guard (1...12).contains(month), (1...31).contains(day), height > 0, athlete <= 1,
            let sex = HS5User.Sex(rawValue: sexCode)
        else { throw .malformed(what: r.what, problem: .outOfRange("user fields")) }
        return HS5User(
            serialNumber: serial, birthYear: year, birthMonth: month, birthDay: day, heightCM: height,
            isAthlete: athlete == 1, sex: sex)
    }
}
