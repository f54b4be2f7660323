/// A user of an HS5 (seed §5.2): the serial number that identifies the user, and the body facts the scale uses.
///
/// Threading: a value type; share freely.
public struct HS5User: Sendable, Hashable, Codable {
    /// The user's sex as the HS5 takes it.
    public enum Sex: UInt8, Sendable, Hashable, Codable, CaseIterable { case female = 0, male = 1 }

    /// The user's serial number (seed `serialNub`).
    public var serialNumber: UInt32
    /// Birthday (UTC date).
    public var birthYear: Int, birthMonth: Int, birthDay: Int
    /// Height in centimetres (1…255).
    public var heightCM: Int
    /// Whether the user is an athlete (seed `isAthlete`).
    public var isAthlete: Bool
    /// The user's sex.
    public var sex: Sex

    /// Creates a value from its fields (each documented on its property).
    public init(
        serialNumber: UInt32, birthYear: Int, birthMonth: Int, birthDay: Int, heightCM: Int, isAthlete: Bool,
        sex: Sex
    ) {
        self.serialNumber = serialNumber
        self.birthYear = birthYear
        self.birthMonth = birthMonth
        self.birthDay = birthDay
        self.heightCM = heightCM
        self.isAthlete = isAthlete
        self.sex = sex
    }

    /// The serial number for an iHealth user id: 32-bit FNV-1a of its UTF-8 bytes, so the same user always gets
    /// the same number (seed: "the only identification of a user, … provide to other Apps").
    public static func serialNumber(forUserID userID: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in userID.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }
}
