/// One stored measurement of a scale's memory (or a timestamped measurement of a standard scale): weight, time
/// and, from an HS5 or a Body Composition service, body composition. The event store keeps it as the payload of
/// record `<device>/<time>`.
///
/// Threading: a value type; share freely.
public struct ScaleRecord: Sendable, Hashable, Codable {
    /// When the scale measured, Unix seconds (UTC).
    public var time: Int
    /// The weight in kilograms.
    public var weightKg: Double
    /// The HS5's body composition for this record.
    public var bodyComposition: BodyComposition?

    /// Creates a value from its fields (each documented on its property).
    public init(time: Int, weightKg: Double, bodyComposition: BodyComposition? = nil) {
        self.time = time
        self.weightKg = weightKg
        self.bodyComposition = bodyComposition
    }
}

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

/// A user in an HS5's list: its position 0…19 and serial number (seed keys serialNumber, position).
///
/// Threading: a value type; share freely.
public struct HS5UserSlot: Sendable, Hashable, Codable {
    /// The position on the scale, 0…19.
    public var position: Int
    /// The user's serial number (seed `serialNub`).
    public var serialNumber: UInt32

    /// Creates a value from its fields (each documented on its property).
    public init(position: Int, serialNumber: UInt32) {
        self.position = position
        self.serialNumber = serialNumber
    }
}
