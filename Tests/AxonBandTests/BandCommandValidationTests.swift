import AxonBand
import Testing

/// One row per limit of the seed (and of Axon's framing): the command is refused with that typed error, before
/// anything is sent. The valid commands next to them pass.
struct BandCommandValidationTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let command: BandCommand
        let model: BandModel?
        let schedules: BandScheduleBook
        let error: BandCommandError
        init(
            _ rule: String, _ command: BandCommand, model: BandModel? = .fitPro, schedules: BandScheduleBook = .init(),
            _ error: BandCommandError
        ) {
            self.rule = rule
            self.command = command
            self.model = model
            self.schedules = schedules
            self.error = error
        }
        var testDescription: String { rule }
    }

    static let person = BandPersonalInfo(gender: .woman, height: 168, weight: 61, target: 9_000, age: 34)
    static func alarm(id: Int = 0, hour: Int = 7, minute: Int = 30, week: WeekRepeat = [.repeatWeekly, .monday])
        -> BandCommand
    {
        .alarm(BandAlarm(id: id, hour: hour, minute: minute, weekRepeat: week, switchOn: true, viable: true))
    }
    static func schedule(
        day: Int = 24, hour: Int = 9, minute: Int = 0, title: String = "Dentist", subtitle: String = ""
    ) -> BandSchedule {
        BandSchedule(year: 2026, month: 11, day: day, hour: hour, minute: minute, title: title, subtitle: subtitle)
    }
    static let fullDay = BandScheduleBook((0..<4).map { schedule(hour: 8 + $0) })
    static func targets(_ codes: [UInt8], target: Int = 300) -> BandCommand {
        .sportTargets(codes.map { BandSportTarget(sportCode: $0, target: target) })
    }

    static let rows: [Row] = [
        Row(
            "sedentary start hour 0–23",
            .sedentary(.init(startHour: 24, endHour: 18, weekRepeat: [.monday], isOn: true)),
            .hourOutOfRange(field: "sedentary start", value: 24)),
        Row(
            "sedentary end hour 0–23", .sedentary(.init(startHour: 9, endHour: -1, weekRepeat: [.monday], isOn: true)),
            .hourOutOfRange(field: "sedentary end", value: -1)),
        Row(
            "sedentary start and end differ",
            .sedentary(.init(startHour: 9, endHour: 9, weekRepeat: [.monday], isOn: true)),
            .sedentaryWindowEmpty(startHour: 9, endHour: 9)),
        Row(
            "height 50–250 cm", .personalInfo(.init(gender: .man, height: 251, weight: 70, target: 8000, age: 30)),
            .personalValueOutOfRange(field: "height", value: 251, range: 50...250)),
        Row(
            "weight 10–250 kg", .personalInfo(.init(gender: .man, height: 180, weight: 9, target: 8000, age: 30)),
            .personalValueOutOfRange(field: "weight", value: 9, range: 10...250)),
        Row(
            "target 100–100000 steps", .personalInfo(.init(gender: .man, height: 180, weight: 70, target: 0, age: 30)),
            .personalValueOutOfRange(field: "target", value: 0, range: 100...100_000)),
        Row(
            "age 5–120", .personalInfo(.init(gender: .man, height: 180, weight: 70, target: 8000, age: 121)),
            .personalValueOutOfRange(field: "age", value: 121, range: 5...120)),
        Row("alarm id 0–7", alarm(id: 8), .alarmIDOutOfRange(8)),
        Row("alarm id not negative", alarm(id: -1), .alarmIDOutOfRange(-1)),
        Row("alarm hour 0–23", alarm(hour: 24), .hourOutOfRange(field: "alarm", value: 24)),
        Row("alarm minute 0–59", alarm(minute: 60), .minuteOutOfRange(field: "alarm", value: 60)),
        Row(
            "schedule date is a calendar day", .writeSchedule(schedule(day: 31)),
            .scheduleDateInvalid(year: 2026, month: 11, day: 31)),
        Row("schedule hour 0–23", .writeSchedule(schedule(hour: 25)), .hourOutOfRange(field: "schedule", value: 25)),
        Row(
            "schedule minute 0–59", .writeSchedule(schedule(minute: 75)),
            .minuteOutOfRange(field: "schedule", value: 75)),
        Row("schedule needs a title", .writeSchedule(schedule(title: "")), .scheduleTitleEmpty),
        Row(
            "schedule title ≤ 20 characters", .writeSchedule(schedule(title: String(repeating: "t", count: 21))),
            .scheduleTitleTooLong(characters: 21)),
        Row(
            "schedule subtitle ≤ 33 characters", .writeSchedule(schedule(subtitle: String(repeating: "ñ", count: 34))),
            .scheduleSubtitleTooLong(characters: 34)),
        Row(
            "at most 4 schedules a day", .writeSchedule(schedule(hour: 20)), schedules: fullDay,
            .scheduleDayFull(date: "2026-11-24")),
        Row(
            "never two schedules at the same date and time", .writeSchedule(schedule(hour: 9)),
            schedules: BandScheduleBook([schedule(hour: 9, title: "Other")]),
            .scheduleSlotTaken(slot: "2026-11-24 09:00")),
        Row(
            "closing a schedule the band holds", .closeSchedule(schedule(hour: 11)),
            .scheduleNotFound(slot: "2026-11-24 11:00")),
        Row(
            "backlight start hour 0–23", .hardwareOptions(.init(backlightStart: 24)),
            .hourOutOfRange(field: "backlight start", value: 24)),
        Row(
            "backlight end hour 0–23", .hardwareOptions(.init(backlightEnd: 99)),
            .hourOutOfRange(field: "backlight end", value: 99)),
        Row(
            "background colour only on 9616", .hardwareOptions(.init(whiteBackground: true)), model: .fitPulse,
            .backgroundColourUnsupported(model: .fitPulse)),
        Row(
            "background colour needs a known model", .hardwareOptions(.init(whiteBackground: false)), model: nil,
            .backgroundColourUnsupported(model: nil)),
        Row("at least one sport target", targets([]), .sportTargetsEmpty),
        Row("at most 5 sport targets", targets([0x01, 0x02, 0x03, 0x04, 0x05, 0x06]), .tooManySportTargets(count: 6)),
        Row("walking is mandatory", targets([0x83, 0x88]), .walkingTargetMissing),
        Row("sport codes from the table", targets([0x01, 0x07]), .unknownSport(code: 0x07)),
        Row("no sport twice", targets([0x01, 0x83, 0x83]), .duplicateSport(code: 0x83)),
        Row("sport target 1–65535", targets([0x01], target: 0), .sportTargetOutOfRange(code: 0x01, target: 0)),
        Row("push text not empty", .pushText(""), .pushTextEmpty),
        Row("push text ≤ 64 bytes", .pushText(String(repeating: "é", count: 33)), .pushTextTooLong(bytes: 66)),
    ]

    @Test(arguments: rows) func ruleIsEnforced(_ row: Row) {
        #expect(throws: row.error) { try row.command.validate(model: row.model, schedules: row.schedules) }
    }

    static let valid: [BandCommand] = [
        .sedentary(.init(startHour: 9, endHour: 18, weekRepeat: [.repeatWeekly, .monday, .friday], isOn: true)),
        // Overnight, as the seed allows: the framing carries 22 and 6 as they are.
        .sedentary(.init(startHour: 22, endHour: 6, weekRepeat: [.repeatWeekly, .monday], isOn: true)),
        .personalInfo(person),
        alarm(id: 7, hour: 23, minute: 59),
        // Switched off by an empty week: allowed (that is how the SDK turns an alarm off).
        .alarm(BandAlarm(id: 0, hour: 6, minute: 0, weekRepeat: [], switchOn: true, viable: true)),
        // Only the repeat bit: the seed allows it (an alarm that rings on no day).
        alarm(week: [.repeatWeekly]),
        .writeSchedule(schedule(title: String(repeating: "t", count: 20), subtitle: String(repeating: "s", count: 33))),
        .hardwareOptions(.init(backlightStart: 0, backlightEnd: 23)),
        targets([0x01, 0x02, 0x83, 0x88, 0x90]),
        .pushText(String(repeating: "a", count: 64)),
        .cameraMode(true), .heartRateAutoSync(true), .sportDataAutoSync(false), .reset, .clearSchedules,
    ]

    @Test(arguments: valid) func validCommandsPass(_ command: BandCommand) throws {
        try command.validate(model: .fitPro, schedules: BandScheduleBook([Self.schedule(hour: 10)]))
    }

    @Test func backgroundColourIsFineOnA9616AndFourSchedulesFitADay() throws {
        try BandCommand.hardwareOptions(.init(whiteBackground: true)).validate(model: .smarteeTraining)
        var book = BandScheduleBook()
        for hour in 8..<12 {
            let command = BandCommand.writeSchedule(Self.schedule(hour: hour))
            try command.validate(model: .fitPro, schedules: book)
            book.apply(command)
        }
        #expect(book.count(onDayOf: Self.schedule()) == 4)
        // Another day is unaffected.
        try BandCommand.writeSchedule(Self.schedule(day: 25)).validate(model: .fitPro, schedules: book)
    }

    @Test func alarmActivityFollowsTheSeed() {
        func alarm(_ week: WeekRepeat, _ on: Bool, _ viable: Bool) -> BandAlarm {
            BandAlarm(id: 1, hour: 7, minute: 0, weekRepeat: week, switchOn: on, viable: viable)
        }
        #expect(alarm([.monday], true, true).isActive)  // repeat flag may be off: a one-off alarm
        #expect(alarm([.repeatWeekly, .sunday], true, true).isActive)
        #expect(!alarm([.monday], false, true).isActive)
        #expect(!alarm([.monday], true, false).isActive)
        #expect(!alarm([], true, true).isActive)
        #expect(!alarm([.repeatWeekly], true, true).isActive)
    }
}
