/// The ADS1299's programmable gain, as the Cyton's channel-settings command codes it (`0`…`6`).
///
/// µV per count = 4.5 V / gain / (2²³ − 1) × 10⁶; at the default gain 24 that is 0.02235 µV.
///
/// Threading: a value type; share freely.
public enum CytonGain: Int, Sendable, Hashable, CaseIterable {
    case x1 = 1, x2 = 2, x4 = 4, x6 = 6, x8 = 8, x12 = 12, x24 = 24

    /// The board's power-up gain.
    public static let `default` = CytonGain.x24
    /// The ADS1299 reference voltage on the Cyton, volts.
    public static let referenceVolts = 4.5

    /// The gain factor.
    public var factor: Int { rawValue }

    /// µV per ADS1299 count at this gain.
    public var microvoltsPerCount: Double { Self.referenceVolts / Double(rawValue) / Double((1 << 23) - 1) * 1e6 }

    /// The digit of the channel-settings command (`0` = ×1 … `6` = ×24).
    public var commandCode: Character {
        Character(String(Self.allCases.firstIndex(of: self)!))
    }

    /// The gain of a command digit, `nil` if the digit is not `0`…`6`.
    public init?(commandCode: Character) {
        guard let digit = commandCode.wholeNumberValue, Self.allCases.indices.contains(digit),
            commandCode.isASCII
        else { return nil }
        self = Self.allCases[digit]
    }
}
