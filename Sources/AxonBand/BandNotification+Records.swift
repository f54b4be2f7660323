extension BandNotification {
    /// Decodes a record's fields after its sequence number.
    static func content(_ kind: BandRecordKind, _ r: inout ByteReader) throws(BandDecodingError) -> BandRecordContent {
        switch kind {
        case .today:
            let sport = try self.sport(&r)
            let steps = Int(try r.u32()), calories = Int(try r.u32()), distance = Int(try r.u32())
            let count = Int(try r.u16())
            _ = try r.take(5)  // year, month, day, week: ignored (always today)
            return .today(
                BandTodayTotals(sport: sport, steps: steps, calories: calories, distance: distance, count: count))
        case .day:
            let date = try self.date(&r)
            let sport = try self.sport(&r)
            return .day(
                BandDayTotals(
                    date: date, sport: sport, steps: Int(try r.u32()), calories: Int(try r.u32()),
                    distance: Int(try r.u32()), count: Int(try r.u16())))
        case .sport:
            let date = try self.date(&r)
            let start = try minute(&r, "start"), end = try minute(&r, "end")
            let sport = try self.sport(&r)
            return .sport(
                BandSportSession(
                    date: date, startMinute: start, endMinute: end, sport: sport, steps: Int(try r.u32()),
                    calories: Int(try r.u32()), distance: Int(try r.u32()), activity: Int(try r.u16()),
                    count: Int(try r.u16())))
        case .sleep:
            let date = try self.date(&r)
            let start = try minute(&r, "start"), end = try minute(&r, "end")
            let raw = try r.u8()
            guard let type = BandSleepType(rawValue: raw) else {
                throw .invalidField(type: r.type, field: "sleep type", value: Int(raw))
            }
            return .sleep(BandSleepSegment(date: date, startMinute: start, endMinute: end, type: type))
        case .heartRate:
            let date = try self.date(&r)
            let hour = Int(try r.u8())
            guard hour < 24 else { throw .invalidField(type: r.type, field: "hour", value: hour) }
            let values = try r.take(60).map { $0 == 255 ? nil : Int($0) }
            return .heartRate(BandHourlyHeartRate(date: date, hour: hour, beatsPerMinute: values))
        case .supportedSports:
            let maximum = Int(try r.u8()), index = Int(try r.u8()), total = Int(try r.u8())
            guard index < total else { throw .invalidField(type: r.type, field: "sport index", value: index) }
            let sport = try self.sport(&r)
            let name = try text(&r), unit = try text(&r)
            return .supportedSport(
                BandSupportedSport(
                    entry: .init(sport: sport, name: name, unit: unit), index: index, total: total,
                    maximumActive: maximum))
        case .takePicture, .searchPhone:
            let date = try self.date(&r)
            let h = Int(try r.u8()), m = Int(try r.u8()), s = Int(try r.u8())
            guard h < 24, m < 60, s < 60 else {
                throw .invalidField(type: r.type, field: "time", value: h * 10_000 + m * 100 + s)
            }
            let event = BandButtonEvent(date: date, second: h * 3600 + m * 60 + s)
            return kind == .takePicture ? .takePicture(event) : .searchPhone(event)
        }
    }

    static func write(_ content: BandRecordContent, into w: inout ByteWriter) {
        func date(_ d: BandDate) {
            w.u16(d.year)
            w.u8(d.month)
            w.u8(d.day)
        }
        switch content {
        case .today(let t):
            // Totals read back from an axon-band-1 row have no sport: 0x00 is no sport code, so such a frame is
            // refused by every decoder rather than passed off as some sport's.
            w.u8(t.sport?.code ?? 0)
            w.u32(t.steps)
            w.u32(t.calories)
            w.u32(t.distance)
            w.u16(t.count ?? 0)
            // The band's own date fields: the seed says they are not to be trusted; Axon writes zeros.
            w.bytes += [0, 0, 0, 0, 0]
        case .day(let d):
            date(d.date)
            w.u8(d.sport.code)
            w.u32(d.steps)
            w.u32(d.calories)
            w.u32(d.distance)
            w.u16(d.count)
        case .sport(let s):
            date(s.date)
            w.u16(s.startMinute)
            w.u16(s.endMinute)
            w.u8(s.sport.code)
            w.u32(s.steps)
            w.u32(s.calories)
            w.u32(s.distance)
            w.u16(s.activity)
            w.u16(s.count)
        case .sleep(let s):
            date(s.date)
            w.u16(s.startMinute)
            w.u16(s.endMinute)
            w.u8(s.type.rawValue)
        case .heartRate(let h):
            date(h.date)
            w.u8(h.hour)
            w.bytes += h.beatsPerMinute.map { $0.map { UInt8(clamping: $0) } ?? 255 }
        case .supportedSport(let s):
            w.u8(s.maximumActive)
            w.u8(s.index)
            w.u8(s.total)
            w.u8(s.entry.sport.code)
            w.text(s.entry.name)
            w.text(s.entry.unit)
        case .takePicture(let e), .searchPhone(let e):
            date(e.date)
            w.u8(e.second / 3600)
            w.u8(e.second / 60 % 60)
            w.u8(e.second % 60)
        }
    }

    static func date(_ r: inout ByteReader) throws(BandDecodingError) -> BandDate {
        let year = Int(try r.u16()), month = Int(try r.u8()), day = Int(try r.u8())
        guard let date = BandDate(year: year, month: month, day: day) else {
            throw .invalidField(type: r.type, field: "date", value: year * 10_000 + month * 100 + day)
        }
        return date
    }

    private static func minute(_ r: inout ByteReader, _ name: String) throws(BandDecodingError) -> Int {
        let minute = Int(try r.u16())
        guard minute < 1440 else { throw .invalidField(type: r.type, field: "\(name) minute", value: minute) }
        return minute
    }

    private static func sport(_ r: inout ByteReader) throws(BandDecodingError) -> BandSport {
        let code = try r.u8()
        guard let sport = BandSport(code: code) else {
            throw .invalidField(type: r.type, field: "sport", value: Int(code))
        }
        return sport
    }
}
