extension BandCommand {
    /// The frame on the wire (docs/band-protocol.md). Encodes what it is given: validate first.
    ///
    /// Threading: pure; any thread.
    public var bytes: [UInt8] {
        var w = ByteWriter()
        switch self {
        case .sync(let after): w.u32(Int(after))
        case .acknowledge(let sequence): w.u32(Int(sequence))
        case .getDeviceInfo, .getBattery, .getSupportedSports, .getCurrentSportData, .readSchedules, .clearSchedules,
            .reset:
            break
        case .readScheduleInfo(let date):
            w.u16(date.year)
            w.u8(date.month)
            w.u8(date.day)
        case .sedentary(let s):
            w.bool(s.isOn)
            w.u8(s.startHour)
            w.u8(s.endHour)
            w.u8(s.weekRepeat.rawValue)
        case .personalInfo(let p):
            w.u8(p.gender.rawValue)
            w.u8(p.height)
            w.u8(p.weight)
            w.u32(p.target)
            w.u8(p.age)
        case .alarm(let a):
            w.u8(a.id)
            w.bool(a.switchOn)
            w.bool(a.viable)
            w.u8(a.hour)
            w.u8(a.minute)
            w.u8(a.weekRepeat.rawValue)
        case .writeSchedule(let s), .closeSchedule(let s):
            w.u16(s.year)
            w.u8(s.month)
            w.u8(s.day)
            w.u8(s.hour)
            w.u8(s.minute)
            if case .writeSchedule = self {
                w.text(s.title)
                w.text(s.subtitle)
            }
        case .hardwareOptions(let o):
            w.u8(o.units.rawValue)
            w.u8(o.timeFormat.rawValue)
            w.bool(o.autoSleep)
            w.u8(o.backlightStart)
            w.u8(o.backlightEnd)
            w.u8(o.whiteBackground.map { $0 ? 1 : 0 } ?? 0xFF)
            w.u8(o.language.rawValue)
            w.bool(o.leSwitch)
            w.bool(o.wristSwitch)
        case .sportTargets(let targets):
            w.u8(targets.count)
            for t in targets {
                w.u8(t.sportCode)
                w.u16(t.target)
            }
        case .pushText(let text): w.text(text)
        case .cameraMode(let on), .heartRateAutoSync(let on), .sportDataAutoSync(let on): w.bool(on)
        }
        return BandFrame(type: type, payload: Array(w.bytes.prefix(255))).bytes
    }

    /// Decodes a command frame (the band's side: the simulators).
    ///
    /// - Throws: ``BandDecodingError`` for a malformed frame or a field that cannot be represented (an unknown
    ///   gender, units or language code, text that is not UTF-8). Range rules are ``validate(model:schedules:)``'s.
    public init(decoding bytes: [UInt8]) throws(BandDecodingError) {
        let frame = try BandFrame(parsing: bytes)
        var r = ByteReader(frame.payload, type: frame.type)
        func flag() throws(BandDecodingError) -> Bool {
            let v = try r.u8()
            guard v <= 1 else { throw .invalidField(type: frame.type, field: "flag", value: Int(v)) }
            return v == 1
        }
        func code<T: RawRepresentable<UInt8>>(_: T.Type, _ field: String) throws(BandDecodingError) -> T {
            let v = try r.u8()
            guard let value = T(rawValue: v) else { throw .invalidField(type: frame.type, field: field, value: Int(v)) }
            return value
        }
        switch frame.type {
        case 0x01: self = .sync(after: try r.u32())
        case 0x02: self = .acknowledge(sequence: try r.u32())
        case 0x03: self = .getDeviceInfo
        case 0x04: self = .getBattery
        case 0x05: self = .getSupportedSports
        case 0x06: self = .getCurrentSportData
        case 0x07: self = .readScheduleInfo(try BandNotification.date(&r))
        case 0x08: self = .readSchedules
        case 0x40:
            let on = try flag()
            self = .sedentary(
                BandSedentaryReminder(
                    startHour: Int(try r.u8()), endHour: Int(try r.u8()), weekRepeat: WeekRepeat(rawValue: try r.u8()),
                    isOn: on))
        case 0x41:
            self = .personalInfo(
                BandPersonalInfo(
                    gender: try code(BandPersonalInfo.Gender.self, "gender"), height: Int(try r.u8()),
                    weight: Int(try r.u8()), target: Int(try r.u32()), age: Int(try r.u8())))
        case 0x42:
            let id = Int(try r.u8()), switchOn = try flag(), viable = try flag()
            self = .alarm(
                BandAlarm(
                    id: id, hour: Int(try r.u8()), minute: Int(try r.u8()),
                    weekRepeat: WeekRepeat(rawValue: try r.u8()),
                    switchOn: switchOn, viable: viable))
        case 0x43, 0x44:
            let year = Int(try r.u16()), month = Int(try r.u8()), day = Int(try r.u8())
            let hour = Int(try r.u8()), minute = Int(try r.u8())
            if frame.type == 0x43 {
                let title = try BandNotification.text(&r), subtitle = try BandNotification.text(&r)
                self = .writeSchedule(
                    BandSchedule(
                        year: year, month: month, day: day, hour: hour, minute: minute, title: title, subtitle: subtitle
                    ))
            } else {
                self = .closeSchedule(
                    BandSchedule(
                        year: year, month: month, day: day, hour: hour, minute: minute, title: "", subtitle: ""))
            }
        case 0x45: self = .clearSchedules
        case 0x46:
            let units = try code(BandHardwareOptions.Units.self, "units")
            let time = try code(BandHardwareOptions.TimeFormat.self, "time format")
            let autoSleep = try flag()
            let start = Int(try r.u8()), end = Int(try r.u8())
            let colour = try r.u8()
            guard colour <= 1 || colour == 0xFF else {
                throw .invalidField(type: frame.type, field: "background", value: Int(colour))
            }
            self = .hardwareOptions(
                BandHardwareOptions(
                    units: units, timeFormat: time, autoSleep: autoSleep, backlightStart: start, backlightEnd: end,
                    whiteBackground: colour == 0xFF ? nil : colour == 1,
                    language: try code(BandHardwareOptions.Language.self, "language"), leSwitch: try flag(),
                    wristSwitch: try flag()))
        case 0x47:
            let count = Int(try r.u8())
            var targets: [BandSportTarget] = []
            for _ in 0..<count { targets.append(BandSportTarget(sportCode: try r.u8(), target: Int(try r.u16()))) }
            self = .sportTargets(targets)
        case 0x48: self = .pushText(try BandNotification.text(&r))
        case 0x49: self = .cameraMode(try flag())
        case 0x4A: self = .heartRateAutoSync(try flag())
        case 0x4B: self = .sportDataAutoSync(try flag())
        case 0x4C: self = .reset
        default: throw .unknownType(frame.type)
        }
        try r.end()
    }
}
