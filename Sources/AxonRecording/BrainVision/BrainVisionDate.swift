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
        let days = CivilDate.days(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + Double(micro) / 1e6
    }

    /// The 20-digit date of Unix seconds, to the microsecond.
    static func text(_ unixTime: Double) -> String {
        // Years 1…9999 fit the field (and an Int64 of microseconds); anything else is the all-zero "no date".
        guard unixTime.isFinite, unixTime > -62_135_596_800, unixTime < 253_402_300_800 else {
            return String(repeating: "0", count: 20)
        }
        let micros = Int64((unixTime * 1e6).rounded())
        var seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let micro = Int(micros - seconds * 1_000_000)
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        seconds -= Int64(days) * 86_400
        let (year, month, day) = CivilDate.date(days: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        let microText = String(micro)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + two(month) + two(day)
            + two(Int(seconds) / 3_600) + two(Int(seconds) % 3_600 / 60) + two(Int(seconds) % 60)
            + String(repeating: "0", count: 6 - microText.count) + microText
    }
}
