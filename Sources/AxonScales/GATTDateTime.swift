/// The Bluetooth SIG Date Time field (7 bytes): year uint16, month, day, hours, minutes, seconds; 0 in year, month
/// or day means "not known".
///
/// Threading: a value type; share freely.
public struct GATTDateTime: Sendable, Hashable, Codable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int

    /// A date and time from its fields (0 in year, month or day: unknown).
    public init(year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int) {
        (self.year, self.month, self.day, self.hours, self.minutes, self.seconds) =
            (year, month, day, hours, minutes, seconds)
    }

    /// The UTC date and time of `unixTime` (whole seconds).
    public init(unixTime: Int) {
        let days = unixTime >= 0 ? unixTime / 86_400 : (unixTime - 86_399) / 86_400
        let second = unixTime - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(
            year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d, hours: second / 3600,
            minutes: second / 60 % 60, seconds: second % 60)
    }

    /// Reads and range-checks the 7 bytes.
    static func read(_ reader: inout ByteReader) throws(ScaleError) -> GATTDateTime {
        let year = Int(try reader.uint16())
        let fields = [
            try reader.uint8(), try reader.uint8(), try reader.uint8(), try reader.uint8(), try reader.uint8(),
        ]
        .map(Int.init)
        let value = GATTDateTime(
            year: year, month: fields[0], day: fields[1], hours: fields[2], minutes: fields[3], seconds: fields[4])
        guard year == 0 || (1582...9999).contains(year), (0...12).contains(value.month), (0...31).contains(value.day),
            (0...23).contains(value.hours), (0...59).contains(value.minutes), (0...59).contains(value.seconds)
        else { throw .malformed(what: reader.what, problem: .outOfRange("date time \(value)")) }
        return value
    }

    /// The 7 bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.appendLE(UInt16(clamping: year))
        out += [month, day, hours, minutes, seconds].map { UInt8(clamping: $0) }
        return out
    }

    /// Unix seconds (UTC), or `nil` when year, month or day is unknown.
    public var unixTime: Int? {
        guard year != 0, month != 0, day != 0 else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86_400 + hours * 3600 + minutes * 60 + seconds
    }

    /// A sentence for people.
    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(hours)):\(two(minutes)):\(two(seconds))"
    }
}
