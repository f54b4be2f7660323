extension BandCommand {
    /// Checks every limit of the seed before the command is sent.
    ///
    /// - Parameters:
    ///   - model: the band's model when known (the background colour needs a 9616).
    ///   - schedules: the schedules the band holds (at most 4 a day, never two at the same date and time).
    /// - Throws: the ``BandCommandError`` of the first rule broken.
    ///
    /// Threading: pure; any thread.
    public func validate(model: BandModel?, schedules: BandScheduleBook = .init()) throws(BandCommandError) {
        switch self {
        case .sedentary(let s):
            try Self.hour(s.startHour, "sedentary start")
            try Self.hour(s.endHour, "sedentary end")
            // A window may cross midnight (22 → 6): the framing carries both hours as they are.
            guard s.startHour != s.endHour else {
                throw .sedentaryWindowEmpty(startHour: s.startHour, endHour: s.endHour)
            }
        case .personalInfo(let p):
            try Self.range(p.height, BandPersonalInfo.heightRange, "height")
            try Self.range(p.weight, BandPersonalInfo.weightRange, "weight")
            try Self.range(p.target, BandPersonalInfo.targetRange, "target")
            try Self.range(p.age, BandPersonalInfo.ageRange, "age")
        case .alarm(let a):
            guard (0...7).contains(a.id) else { throw .alarmIDOutOfRange(a.id) }
            try Self.hour(a.hour, "alarm")
            try Self.minute(a.minute, "alarm")
        case .writeSchedule(let s):
            try Self.scheduleFields(s)
            try schedules.checkAdding(s)
        case .closeSchedule(let s):
            guard s.date != nil else { throw .scheduleDateInvalid(year: s.year, month: s.month, day: s.day) }
            guard schedules.contains(slot: s.slot) else { throw .scheduleNotFound(slot: s.slot) }
        case .hardwareOptions(let o):
            try Self.hour(o.backlightStart, "backlight start")
            try Self.hour(o.backlightEnd, "backlight end")
            if o.whiteBackground != nil, model?.hasBackgroundColour != true {
                throw .backgroundColourUnsupported(model: model)
            }
        case .sportTargets(let targets):
            guard !targets.isEmpty else { throw .sportTargetsEmpty }
            guard targets.count <= BandSportTarget.maximumCount else {
                throw .tooManySportTargets(count: targets.count)
            }
            var seen = Set<UInt8>()
            for target in targets {
                guard BandSport(code: target.sportCode) != nil else { throw .unknownSport(code: target.sportCode) }
                guard seen.insert(target.sportCode).inserted else { throw .duplicateSport(code: target.sportCode) }
                guard (1...65_535).contains(target.target) else {
                    throw .sportTargetOutOfRange(code: target.sportCode, target: target.target)
                }
            }
            guard seen.contains(BandSport.walking.code) else { throw .walkingTargetMissing }
        case .pushText(let text):
            guard !text.isEmpty else { throw .pushTextEmpty }
            let bytes = text.utf8.count
            guard bytes <= Self.maximumPushTextBytes else { throw .pushTextTooLong(bytes: bytes) }
        case .sync, .acknowledge, .getDeviceInfo, .getBattery, .getSupportedSports, .getCurrentSportData,
            .readScheduleInfo, .readSchedules, .clearSchedules, .cameraMode, .heartRateAutoSync, .sportDataAutoSync, .reset:
            break
        }
    }

    static func scheduleFields(_ s: BandSchedule) throws(BandCommandError) {
        guard s.date != nil else { throw .scheduleDateInvalid(year: s.year, month: s.month, day: s.day) }
        try hour(s.hour, "schedule")
        try minute(s.minute, "schedule")
        guard !s.title.isEmpty else { throw .scheduleTitleEmpty }
        guard s.title.count <= BandSchedule.maximumTitle else { throw .scheduleTitleTooLong(characters: s.title.count) }
        guard s.subtitle.count <= BandSchedule.maximumSubtitle else {
            throw .scheduleSubtitleTooLong(characters: s.subtitle.count)
        }
    }

    private static func hour(_ value: Int, _ field: String) throws(BandCommandError) {
        guard (0...23).contains(value) else { throw .hourOutOfRange(field: field, value: value) }
    }

    private static func minute(_ value: Int, _ field: String) throws(BandCommandError) {
        guard (0...59).contains(value) else { throw .minuteOutOfRange(field: field, value: value) }
    }

    private static func range(_ value: Int, _ range: ClosedRange<Int>, _ field: String) throws(BandCommandError) {
        guard range.contains(value) else { throw .personalValueOutOfRange(field: field, value: value, range: range) }
    }
}
