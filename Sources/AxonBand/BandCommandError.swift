/// A command refused before anything is sent, one case per rule of the seed (and of Axon's framing).
///
/// Threading: a value type; share freely.
public enum BandCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An hour outside 0–23 (`field`: sedentary start/end, backlight start/end, alarm, schedule).
    case hourOutOfRange(field: String, value: Int)
    /// A minute outside 0–59.
    case minuteOutOfRange(field: String, value: Int)
    /// The sedentary reminder's start and end hour are the same: no window (one crossing midnight, 22 → 6, is fine).
    case sedentaryWindowEmpty(startHour: Int, endHour: Int)
    /// A personal-information value outside its sane range.
    case personalValueOutOfRange(field: String, value: Int, range: ClosedRange<Int>)
    /// Alarm ids are 0–7.
    case alarmIDOutOfRange(Int)
    /// A schedule date that is not a calendar day.
    case scheduleDateInvalid(year: Int, month: Int, day: Int)
    /// Title over 20 characters.
    case scheduleTitleTooLong(characters: Int)
    /// Subtitle over 33 characters.
    case scheduleSubtitleTooLong(characters: Int)
    /// An empty title.
    case scheduleTitleEmpty
    /// The day already has 4 schedules.
    case scheduleDayFull(date: String)
    /// A schedule already exists at that date and time.
    case scheduleSlotTaken(slot: String)
    /// Closing a schedule the band does not hold.
    case scheduleNotFound(slot: String)
    /// A background colour for a band other than the 9616 (`model` nil: the model is not known yet).
    case backgroundColourUnsupported(model: BandModel?)
    /// No sport targets.
    case sportTargetsEmpty
    /// More than 5 sport targets.
    case tooManySportTargets(count: Int)
    /// Walking (0x01) must be one of the targets.
    case walkingTargetMissing
    /// A sport code not in the table.
    case unknownSport(code: UInt8)
    /// The same sport twice.
    case duplicateSport(code: UInt8)
    /// A calorie target outside 1–65 535.
    case sportTargetOutOfRange(code: UInt8, target: Int)
    /// Empty push text.
    case pushTextEmpty
    /// Push text over 64 UTF-8 bytes.
    case pushTextTooLong(bytes: Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .hourOutOfRange(let field, let value): "\(field) hour \(value) is not within 0–23"
        case .minuteOutOfRange(let field, let value): "\(field) minute \(value) is not within 0–59"
        case .sedentaryWindowEmpty(let start, let end):
            "the sedentary reminder's start hour \(start) and end hour \(end) make no window"
        case .personalValueOutOfRange(let field, let value, let range):
            "\(field) \(value) is outside \(range.lowerBound)–\(range.upperBound)"
        case .alarmIDOutOfRange(let id): "alarm id \(id) is not within 0–7"
        case .scheduleDateInvalid(let y, let m, let d): "\(y)-\(m)-\(d) is not a calendar day"
        case .scheduleTitleTooLong(let n): "schedule title of \(n) characters (at most 20)"
        case .scheduleSubtitleTooLong(let n): "schedule subtitle of \(n) characters (at most 33)"
        case .scheduleTitleEmpty: "a schedule needs a title"
        case .scheduleDayFull(let date): "\(date) already has 4 schedules (the most a day can have)"
        case .scheduleSlotTaken(let slot): "there is already a schedule at \(slot)"
        case .scheduleNotFound(let slot): "there is no schedule at \(slot)"
        case .backgroundColourUnsupported(let model):
            "only the Smartee Training 9616N has a background colour"
                + (model.map { " (this is a \($0))" } ?? " (model unknown)")
        case .sportTargetsEmpty: "at least one sport target (walking) is needed"
        case .tooManySportTargets(let n): "\(n) sport targets (at most 5)"
        case .walkingTargetMissing: "walking (0x01) must be one of the sport targets"
        case .unknownSport(let code): "sport code 0x\(String(code, radix: 16)) is not in the sports table"
        case .duplicateSport(let code): "sport 0x\(String(code, radix: 16)) appears twice"
        case .sportTargetOutOfRange(let code, let target):
            "target \(target) for sport 0x\(String(code, radix: 16)) is outside 1–65535"
        case .pushTextEmpty: "push text is empty"
        case .pushTextTooLong(let bytes): "push text of \(bytes) UTF-8 bytes (at most 64)"
        }
    }
}
