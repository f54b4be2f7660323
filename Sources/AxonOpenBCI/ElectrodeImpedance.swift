/// An electrode's impedance as the OpenBCI GUI shows it, with the GUI's colour for it and a pass/fail against a
/// threshold.
///
/// Ganglion (the GUI's `W_GanglionImpedance`): the board reports, per channel and for the reference, the kΩ of the
/// electrode in series with the driven-ground (D_G) electrode; the GUI shows half of it ("assuming that the D_G
/// electrode is comparable in impedance") and colours it ≤ 10 kΩ very good, ≤ 50 good, ≤ 100 acceptable, ≤ 150
/// questionable, above bad; 0 or less is "no data yet".
///
/// Cyton (the GUI's `CytonElectrodeStatus`): impedance from the 6 nA lead-off drive, green below 750 kΩ, yellow up
/// to 2500 kΩ, red above (``cytonGrade(kiloohms:)``).
///
/// Threading: a value type; share freely.
public struct ElectrodeImpedance: Sendable, Hashable {
    /// The GUI's colour band for a value.
    public enum Grade: String, Sendable, Hashable, CaseIterable {
        /// Ganglion ≤ 10 kΩ (dark green).
        case veryGood = "very good"
        /// Ganglion ≤ 50 kΩ (yellow-green); Cyton < 750 kΩ (green).
        case good
        /// Ganglion ≤ 100 kΩ (yellow).
        case acceptable
        /// Ganglion ≤ 150 kΩ (orange); Cyton 750–2500 kΩ (yellow).
        case questionable
        /// Ganglion > 150 kΩ; Cyton > 2500 kΩ (red).
        case bad
    }

    /// The Ganglion's default pass threshold: the upper bound of the GUI's "acceptable", kΩ.
    public static let ganglionThreshold = 100.0
    /// The Cyton's default pass threshold: the GUI's green cutoff, kΩ.
    public static let cytonThreshold = 750.0

    /// The channel's label (`1`…, `REF`).
    public let channel: String
    /// The electrode's impedance, kΩ, as the GUI shows it.
    public let kiloohms: Double
    /// The GUI's band; `nil` when the value is 0 or less (no reading yet).
    public let grade: Grade?

    /// A value and its band.
    public init(channel: String, kiloohms: Double, grade: Grade?) {
        self.channel = channel
        self.kiloohms = kiloohms
        self.grade = grade
    }

    /// Whether the value is a reading at or below `threshold` kΩ (a value of 0 or less is no reading: fail).
    public func passes(threshold: Double) -> Bool { kiloohms > 0 && kiloohms <= threshold }

    /// A Ganglion reading: `boardValue` (kΩ of the electrode in series with D_G, as the board sends it) halved as
    /// the GUI does. `channel` is 1–4, or 5 for the reference.
    public static func ganglion(channel: Int, boardValue: Int) -> ElectrodeImpedance {
        let kiloohms = Double(boardValue) / 2
        return ElectrodeImpedance(
            channel: channel == 5 ? "REF" : String(channel), kiloohms: kiloohms,
            grade: ganglionGrade(kiloohms: kiloohms))
    }

    /// The GUI's Ganglion band for `kiloohms` (already halved); `nil` for 0 or less.
    public static func ganglionGrade(kiloohms: Double) -> Grade? {
        switch kiloohms {
        case ...0: nil
        case ...10: .veryGood
        case ...50: .good
        case ...100: .acceptable
        case ...150: .questionable
        default: .bad
        }
    }

    /// The GUI's Cyton band for `kiloohms`: good below 750, questionable to 2500, bad above; `nil` for 0 or less.
    public static func cytonGrade(kiloohms: Double) -> Grade? {
        switch kiloohms {
        case ...0: nil
        case ..<750: .good
        case ...2500: .questionable
        default: .bad
        }
    }
}
