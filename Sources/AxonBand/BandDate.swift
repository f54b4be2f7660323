import Foundation

/// A calendar day as the band writes it (year, month, day), with checked ranges.
///
/// Threading: a value type; share freely.
public struct BandDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Year.
    public var year: Int
    /// Month, 1–12.
    public var month: Int
    /// Day of the month.
    public var day: Int

    /// A valid date, or `nil` (month 1–12, day within the month, year 2000–2099).
    public init?(year: Int, month: Int, day: Int) {
        guard (2000...2099).contains(year), (1...12).contains(month),
            (1...Self.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day containing `date` in `timeZone`.
    public init(_ date: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        year = parts.year!
        month = parts.month!
        day = parts.day!
    }

    /// `yyyy-MM-dd`.
    public var description: String {
        "\(year)-\(Self.two(month))-\(Self.two(day))"
    }

    /// The day `days` after this one.
    public func adding(days: Int) -> BandDate {
        BandDate(start(in: .gmt).addingTimeInterval(Double(days) * 86_400), timeZone: .gmt)
    }

    /// Midnight at the start of the day in `timeZone`.
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// Unix seconds of `minute` minutes after midnight in `timeZone` (minute may exceed a day).
    public func unixTime(minute: Int, in timeZone: TimeZone) -> Double {
        start(in: timeZone).timeIntervalSince1970 + Double(minute) * 60
    }

    /// <.
    public static func < (a: BandDate, b: BandDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `HH:mm` of a minute of the day.
    static func clock(_ minute: Int) -> String { "\(two(minute / 60)):\(two(minute % 60))" }
}
