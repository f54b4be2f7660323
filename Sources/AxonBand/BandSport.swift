/// A sport of the band's sports table (the SDK's appendix I): code and English name.
///
/// Threading: a value type; share freely.
public struct BandSport: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code the band uses (0x01–0x06, 0x80–0x91).
    public let code: UInt8
    /// The SDK's name for it.
    public let name: String

    /// The sport with this code, or `nil` when the table has none.
    public init?(code: UInt8) {
        guard let name = Self.table[code] else { return nil }
        self.code = code
        self.name = name
    }

    /// The sport with this name (as in ``table``, case-insensitive; `-`, `_` and spaces are interchangeable).
    public init?(name: String) {
        let key = Self.normalized(name)
        guard let entry = Self.table.first(where: { Self.normalized($0.value) == key }) else { return nil }
        self.code = entry.key
        self.name = entry.value
    }

    /// A sentence for people.
    public var description: String { "\(name) (0x\(String(code, radix: 16)))" }

    /// Walking, the one sport every target list must contain.
    public static let walking = BandSport(code: 0x01)!

    /// Every sport of the SDK's appendix, by code.
    public static let table: [UInt8: String] = [
        0x01: "walk", 0x02: "situp", 0x03: "push-up", 0x04: "rope skipping", 0x05: "climb", 0x06: "pull-up",
        0x80: "badminton", 0x81: "basketball", 0x82: "football", 0x83: "swim", 0x84: "volleyball",
        0x85: "pingpong", 0x86: "bowling", 0x87: "tennis", 0x88: "cycling", 0x89: "ski", 0x8A: "skating",
        0x8B: "rock climbing", 0x8C: "gym", 0x8D: "dance", 0x8E: "tablet support", 0x8F: "gym exercise",
        0x90: "yoga", 0x91: "shuttlecock",
    ]

    /// Every sport, by code.
    public static var all: [BandSport] { table.keys.sorted().map { BandSport(code: $0)! } }

    private static func normalized(_ name: String) -> String {
        String(name.lowercased().map { $0 == "-" || $0 == "_" ? " " : $0 })
    }
}
