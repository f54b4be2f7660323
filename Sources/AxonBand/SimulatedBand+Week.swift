import AxonStreams

extension SimulatedBand {
    /// A week of records ending the day before `today`, deterministic in `seed`: per day the walking totals and one
    /// other sport's, two sport sessions, a night of sleep in five segments, and 24 hours of per-minute heart rate
    /// with gaps (255); plus one take-picture and one search-phone event today.
    ///
    /// Threading: pure; any thread.
    public static func week(today: BandDate, days: Int = 7, seed: UInt64 = 7) -> [BandRecordContent] {
        var random = SplitMix64(seed: seed)
        func next(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(random.next() % UInt64(range.count))
        }
        let others: [UInt8] = [0x83, 0x88, 0x90, 0x87, 0x81, 0x8C, 0x8D]
        var records: [BandRecordContent] = []
        for back in stride(from: days, through: 1, by: -1) {
            let date = today.adding(days: -back)
            let steps = next(4_000...14_000)
            records.append(
                .day(
                    BandDayTotals(
                        date: date, sport: .walking, steps: steps, calories: steps / 25, distance: steps * 7 / 10,
                        count: 0)))
            let other = BandSport(code: others[back % others.count])!
            records.append(
                .day(
                    BandDayTotals(
                        date: date, sport: other, steps: 0, calories: next(150...600), distance: next(0...9_000),
                        count: next(0...40))))
            let walkStart = next(420...540)
            records.append(
                .sport(
                    BandSportSession(
                        date: date, startMinute: walkStart, endMinute: walkStart + next(20...50), sport: .walking,
                        steps: next(2_000...5_000), calories: next(80...200), distance: next(1_500...4_000),
                        activity: next(10...90), count: 0)))
            let otherStart = next(1_020...1_140)
            records.append(
                .sport(
                    BandSportSession(
                        date: date, startMinute: otherStart, endMinute: otherStart + next(30...90), sport: other,
                        steps: 0,
                        calories: next(150...600), distance: next(0...9_000), activity: next(10...90),
                        count: next(0...40))))
            // A night in pieces: start, light, deep, light, wake up.
            var minute = next(0...60)
            for type in [BandSleepType.startSleep, .lightSleep, .deepSleep, .lightSleep, .wakeUp] {
                let length = type == .wakeUp ? 5 : next(40...150)
                records.append(
                    .sleep(
                        BandSleepSegment(
                            date: date, startMinute: minute, endMinute: minute + length, type: type)))
                minute += length
            }
            for hour in 0..<24 {
                var values: [Int?] = (0..<60).map { _ in next(52...128) }
                if hour % 5 == 2 {  // the band off the wrist for a while: no reading
                    let start = next(0...40)
                    for m in start..<(start + next(3...19)) { values[m] = nil }
                }
                if hour == 3 { values = Array(repeating: nil, count: 60) }
                records.append(.heartRate(BandHourlyHeartRate(date: date, hour: hour, beatsPerMinute: values)))
            }
        }
        records.append(.takePicture(BandButtonEvent(date: today, second: 9 * 3600 + 15 * 60 + 7)))
        records.append(.searchPhone(BandButtonEvent(date: today, second: 10 * 3600 + 2 * 60 + 41)))
        return records
    }

    /// The sports the simulated band reports: the whole table in code order, five active at most, each with the
    /// band's own name and unit in Chinese as the vendor's bands give them (the seed's `NAME` and `UNIT`).
    public static let supportedSports = BandSupportedSports(
        entries: BandSport.all.map { sport in
            let (name, unit) = deviceNames[sport.code]!
            return BandSupportedSports.Entry(sport: sport, name: name, unit: unit)
        },
        maximumActive: 5)

    /// The simulated band's name and unit for each sport: steps for walking, repetitions for the counted
    /// exercises, floors for climbing, minutes for the rest.
    static let deviceNames: [UInt8: (String, String)] = [
        0x01: ("走路", "步"), 0x02: ("仰卧起坐", "个"), 0x03: ("俯卧撑", "个"), 0x04: ("跳绳", "次"),
        0x05: ("爬楼", "层"), 0x06: ("引体向上", "个"), 0x80: ("羽毛球", "分钟"), 0x81: ("篮球", "分钟"),
        0x82: ("足球", "分钟"), 0x83: ("游泳", "分钟"), 0x84: ("排球", "分钟"), 0x85: ("乒乓球", "分钟"),
        0x86: ("保龄球", "分钟"), 0x87: ("网球", "分钟"), 0x88: ("骑行", "分钟"), 0x89: ("滑雪", "分钟"),
        0x8A: ("滑冰", "分钟"), 0x8B: ("攀岩", "分钟"), 0x8C: ("健身", "分钟"), 0x8D: ("跳舞", "分钟"),
        0x8E: ("平板支撑", "分钟"), 0x8F: ("健身操", "分钟"), 0x90: ("瑜伽", "分钟"), 0x91: ("毽球", "分钟"),
    ]

    /// Today's totals of the simulated band: walking, and rope skipping with the skips it counted.
    public static let todayTotals = [
        BandTodayTotals(sport: .walking, steps: 6_789, calories: 271, distance: 4_752, count: 0),
        BandTodayTotals(sport: BandSport(code: 0x04)!, steps: 0, calories: 96, distance: 0, count: 1_240),
    ]
}
