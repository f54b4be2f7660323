/// The SDK's week-repeat byte: b7 repeat weekly, b6 Monday, b5 Tuesday … b1 Saturday, b0 Sunday.
///
///     let weekdays: WeekRepeat = [.repeatWeekly, .monday, .tuesday, .wednesday, .thursday, .friday]
///     weekdays.rawValue   // 0xFC
///
/// Threading: a value type; share freely.
public struct WeekRepeat: OptionSet, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The byte.
    public let rawValue: UInt8
    /// Creates a value from its fields.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// b7: repeat every week on the days set (else a one-off).
    public static let repeatWeekly = WeekRepeat(rawValue: 0x80)
    /// Monday.
    public static let monday = WeekRepeat(rawValue: 0x40)
    /// Tuesday.
    public static let tuesday = WeekRepeat(rawValue: 0x20)
    /// Wednesday.
    public static let wednesday = WeekRepeat(rawValue: 0x10)
    /// Thursday.
    public static let thursday = WeekRepeat(rawValue: 0x08)
    /// Friday.
    public static let friday = WeekRepeat(rawValue: 0x04)
    /// Saturday.
    public static let saturday = WeekRepeat(rawValue: 0x02)
    /// Sunday.
    public static let sunday = WeekRepeat(rawValue: 0x01)

    /// The seven days in the SDK's order, Monday first, with their short names.
    public static let days: [(WeekRepeat, String)] = [
        (.monday, "mon"), (.tuesday, "tue"), (.wednesday, "wed"), (.thursday, "thu"), (.friday, "fri"),
        (.saturday, "sat"), (.sunday, "sun"),
    ]

    /// Whether at least one weekday bit (b0–b6) is set.
    public var hasWeekday: Bool { rawValue & 0x7F != 0 }

    /// Parses `mon,tue,…` (also `weekdays`, `weekend`, `daily`, `repeat`), or a number (`0xFC`, `252`).
    public init?(parsing text: String) {
        if let number = text.hasPrefix("0x") ? UInt8(text.dropFirst(2), radix: 16) : UInt8(text) {
            self.init(rawValue: number)
            return
        }
        var value: WeekRepeat = []
        for word in text.lowercased().split(separator: ",") {
            switch word {
            case "repeat": value.insert(.repeatWeekly)
            case "daily": value.formUnion([.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday])
            case "weekdays": value.formUnion([.monday, .tuesday, .wednesday, .thursday, .friday])
            case "weekend": value.formUnion([.saturday, .sunday])
            default:
                guard let day = Self.days.first(where: { $0.1 == word }) else { return nil }
                value.insert(day.0)
            }
        }
        self = value
    }

    /// A sentence for people.
    public var description: String {
        var words = Self.days.filter { contains($0.0) }.map(\.1)
        if contains(.repeatWeekly) { words.insert("repeat", at: 0) }
        return words.isEmpty ? "none" : words.joined(separator: ",")
    }
}
