/// BrainVision's marker dates, `YYYYMMDDhhmmssuuuuuu` (20 digits, microseconds last), as Unix seconds. The file
/// names no time zone; like EDF's dates (and MNE-Python), they are taken as UTC.
///
/// Threading: stateless; any thread.
enum BrainVisionDate {
    /// Unix seconds of a 20-digit date, or `nil` for anything else (including the all-zero "no date").
    static func unixTime(_ text: String) -> Double? {
        let digits = Array(text.utf8)
        guard digits.count == 20, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        func number(_ from: Int, _ count: Int) -> Int {
            digits[from..<(from + count)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let (year, month, day) = (number(0, 4), number(4, 2), number(6, 2))
        let (hour, minute, second, micro) = (number(8, 2), number(10, 2), number(12, 2), number(14, 6))
        guard year >= 1, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + Double(micro) / 1e6
    }

    /// The 20-digit date of Unix seconds, to the microsecond.
    static func text(_ unixTime: Double) -> String {
        let micros = Int64((unixTime * 1e6).rounded())
        var seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let micro = Int(micros - seconds * 1_000_000)
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        seconds -= Int64(days) * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        let microText = String(micro)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + two(month) + two(day)
            + two(Int(seconds) / 3_600) + two(Int(seconds) % 3_600 / 60) + two(Int(seconds) % 60)
            + String(repeating: "0", count: 6 - microText.count) + microText
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
