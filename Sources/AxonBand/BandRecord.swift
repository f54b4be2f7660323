/// Today's totals of one sport (the SDK's `CurrentWholeDaySportDataNotification`, whose `raw_data` keeps
/// `sport_type` and `count`). The band's date fields are ignored: these are always today's, as the host sees today.
///
/// Totals stored under the earlier framing `axon-band-1` (docs/band-protocol.md, "Versions") had neither: their
/// frame carried no sport and their store row no count. They decode with ``sport`` and ``count`` `nil` — unknown,
/// not zero. Every frame of `axon-band-2` carries both.
///
/// Threading: a value type; share freely.
public struct BandTodayTotals: Sendable, Hashable, Codable {
    /// The sport these totals are of (`sport_type`); `nil` in totals stored under `axon-band-1`.
    public var sport: BandSport?
    /// Steps.
    public var steps: Int
    /// Calories as the band counts them (kcal).
    public var calories: Int
    /// Distance in metres.
    public var distance: Int
    /// The amount some sports count (sit-ups, skips: the SDK's `count`), 0 for the others; `nil` in totals stored
    /// under `axon-band-1`.
    public var count: Int?
    /// Creates a value from its fields (what an `axon-band-2` frame carries).
    public init(sport: BandSport, steps: Int, calories: Int, distance: Int, count: Int) {
        self.sport = sport
        self.steps = steps
        self.calories = calories
        self.distance = distance
        self.count = count
    }

    /// Decodes a stored row of either framing: `axon-band-1` rows have only steps, calories and distance.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sport = try c.decodeIfPresent(BandSport.self, forKey: .sport)
        steps = try c.decode(Int.self, forKey: .steps)
        calories = try c.decode(Int.self, forKey: .calories)
        distance = try c.decode(Int.self, forKey: .distance)
        count = try c.decodeIfPresent(Int.self, forKey: .count)
    }
}

/// Whole-day totals of an earlier day for one sport (`WholeDaySportDataNotification`).
public struct BandDayTotals: Sendable, Hashable, Codable {
    /// The day (the band's wall clock).
    public var date: BandDate
    /// The sport.
    public var sport: BandSport
    /// Steps.
    public var steps: Int
    /// Calories (kcal).
    public var calories: Int
    /// Distance in metres.
    public var distance: Int
    /// The amount some sports count (sit-ups, skips); 0 otherwise.
    public var count: Int
    /// Creates a value from its fields.
    public init(date: BandDate, sport: BandSport, steps: Int, calories: Int, distance: Int, count: Int) {
        self.date = date
        self.sport = sport
        self.steps = steps
        self.calories = calories
        self.distance = distance
        self.count = count
    }
}

/// One sport session with start and end (`SportDataDetailNotification`); minutes of the day, an end before the
/// start means the session ended the next day.
public struct BandSportSession: Sendable, Hashable, Codable {
    /// The day (the band's wall clock).
    public var date: BandDate
    /// Start, minutes after midnight.
    public var startMinute: Int
    /// End minute.
    public var endMinute: Int
    /// The sport.
    public var sport: BandSport
    /// Steps.
    public var steps: Int
    /// Calories (kcal).
    public var calories: Int
    /// Distance in metres.
    public var distance: Int
    /// The detail fields (`detail_data`): activity and count, as the sport reports them.
    public var activity: Int
    /// Count.
    public var count: Int
    /// Creates a value from its fields.
    public init(
        date: BandDate, startMinute: Int, endMinute: Int, sport: BandSport, steps: Int, calories: Int,
        distance: Int, activity: Int, count: Int
    ) {
        self.date = date
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.sport = sport
        self.steps = steps
        self.calories = calories
        self.distance = distance
        self.activity = activity
        self.count = count
    }
}

/// One sleep segment (`SleepDataNotification`). A night comes in many of these.
public struct BandSleepSegment: Sendable, Hashable, Codable {
    /// The day (the band's wall clock).
    public var date: BandDate
    /// Start, minutes after midnight.
    public var startMinute: Int
    /// Minutes of the day; before ``startMinute`` when the segment crosses midnight.
    public var endMinute: Int
    /// What kind it is.
    public var type: BandSleepType
    /// Creates a value from its fields.
    public init(date: BandDate, startMinute: Int, endMinute: Int, type: BandSleepType) {
        self.date = date
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.type = type
    }
    /// Length in minutes.
    public var minutes: Int { (endMinute - startMinute + 1440) % 1440 }
}

/// One complete hour of per-minute heart rate (`HeartRateDataHoursNotification`). The band's 255 ("no valid
/// reading") becomes `nil`: a gap, never a zero.
public struct BandHourlyHeartRate: Sendable, Hashable, Codable {
    /// The day (the band's wall clock).
    public var date: BandDate
    /// Hour of the day, 0–23.
    public var hour: Int
    /// 60 values, minute 0 to 59; `nil` where the band had no reading.
    public var beatsPerMinute: [Int?]
    /// Creates a value from its fields.
    public init(date: BandDate, hour: Int, beatsPerMinute: [Int?]) {
        self.date = date
        self.hour = hour
        self.beatsPerMinute = beatsPerMinute
    }
    /// The runs of minutes without a reading, in order (`10..<13` for minutes 10, 11 and 12).
    public var gaps: [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for minute in 0...beatsPerMinute.count {
            let missing = minute < beatsPerMinute.count && beatsPerMinute[minute] == nil
            if missing, start == nil { start = minute }
            if !missing, let first = start {
                runs.append(first..<minute)
                start = nil
            }
        }
        return runs
    }
    /// The minutes with a reading.
    public var readings: [(minute: Int, beatsPerMinute: Int)] {
        beatsPerMinute.enumerated().compactMap { minute, value in value.map { (minute, $0) } }
    }
}

/// One entry of the band's supported-sports list (`SupportSportsListNotification`), as the band gives it: the
/// sport's code, the band's own name for it and its unit (the SDK's `raw_data` `NAME` and `UNIT`, in Chinese on
/// the vendor's bands), its place in the list and how many sports can be active at once (`LENGTH`). The band
/// sends the list one entry per record, so every frame stays short.
public struct BandSupportedSport: Sendable, Hashable, Codable {
    /// The sport (`LIST`) with the band's own name (`NAME`) and unit (`UNIT`), kept as the band sent them.
    public var entry: BandSupportedSports.Entry
    /// Place in the list, from 0.
    public var index: Int
    /// How many entries the list has.
    public var total: Int
    /// How many sports can be active at once (`LENGTH`).
    public var maximumActive: Int
    /// Creates a value from its fields.
    public init(entry: BandSupportedSports.Entry, index: Int, total: Int, maximumActive: Int) {
        self.entry = entry
        self.index = index
        self.total = total
        self.maximumActive = maximumActive
    }
}

/// The sports the band supports (`SupportSportsListNotification`) with the band's names and units, in the band's
/// order, and how many can be active at once.
///
/// Threading: a value type; share freely.
public struct BandSupportedSports: Sendable, Hashable, Codable {
    /// One entry per sport, in the band's order.
    public struct Entry: Sendable, Hashable, Codable {
        /// The sport.
        public var sport: BandSport
        /// The band's name for it.
        public var name: String
        /// The band's unit for it.
        public var unit: String
        /// Creates a value from its fields.
        public init(sport: BandSport, name: String, unit: String) {
            self.sport = sport
            self.name = name
            self.unit = unit
        }
    }
    /// The entries (the SDK's `SPORT_NUMBER`, `NAME` and `UNIT`, position for position).
    public var entries: [Entry]
    /// Maximum active.
    public var maximumActive: Int
    /// Creates a value from its fields.
    public init(entries: [Entry], maximumActive: Int) {
        self.entries = entries
        self.maximumActive = maximumActive
    }

    /// The list put together from its records, or `nil` while an entry is missing or the records disagree on the
    /// list's length or the maximum. A record that came twice counts once.
    public init?(assembling records: [BandSupportedSport]) {
        guard let first = records.first, first.total > 0,
            records.allSatisfy({ $0.total == first.total && $0.maximumActive == first.maximumActive })
        else { return nil }
        var byIndex: [Int: BandSupportedSport] = [:]
        for record in records { byIndex[record.index] = record }
        let ordered = (0..<first.total).compactMap { byIndex[$0] }
        guard ordered.count == first.total, byIndex.count == first.total else { return nil }
        self.init(entries: ordered.map(\.entry), maximumActive: first.maximumActive)
    }

    /// The sports' codes and SDK names, in the band's order.
    public var sports: [BandSport] { entries.map(\.sport) }

    /// The records the band sends for this list, one per entry.
    public var records: [BandSupportedSport] {
        entries.enumerated().map { index, entry in
            BandSupportedSport(entry: entry, index: index, total: entries.count, maximumActive: maximumActive)
        }
    }
}

/// A button event on the band (take picture, search phone) at the band's time.
public struct BandButtonEvent: Sendable, Hashable, Codable {
    /// The day (the band's wall clock).
    public var date: BandDate
    /// Seconds of the day.
    public var second: Int
    /// Creates a value from its fields.
    public init(date: BandDate, second: Int) {
        self.date = date
        self.second = second
    }
}

/// A record the band sends once and never again (docs/band-protocol.md): it is stored durably, then
/// acknowledged.
///
/// Threading: a value type; share freely.
public enum BandRecordContent: Sendable, Hashable {
    case today(BandTodayTotals)
    case day(BandDayTotals)
    case sport(BandSportSession)
    case sleep(BandSleepSegment)
    case heartRate(BandHourlyHeartRate)
    case supportedSport(BandSupportedSport)
    case takePicture(BandButtonEvent)
    case searchPhone(BandButtonEvent)

    /// Whether it is a press of the take-picture or search-phone button, which the band sends as it happens.
    public var isButtonPress: Bool {
        switch self {
        case .takePicture, .searchPhone: true
        default: false
        }
    }

    /// Whether the band may push it outside a sync's stop-and-wait order even during a sync: a button press, or an
    /// answer to a request (today's totals, a supported-sports entry).
    public var mayComePushed: Bool {
        switch self {
        case .takePicture, .searchPhone, .today, .supportedSport: true
        default: false
        }
    }

    /// The stream it belongs to.
    public var kind: BandRecordKind {
        switch self {
        case .today: .today
        case .day: .day
        case .sport: .sport
        case .sleep: .sleep
        case .heartRate: .heartRate
        case .supportedSport: .supportedSports
        case .takePicture: .takePicture
        case .searchPhone: .searchPhone
        }
    }
}

/// A record with the band's sequence number (what the acknowledgement names).
public struct BandRecord: Sendable, Hashable {
    /// The band's sequence number, increasing by one per record it ever made.
    public var sequence: UInt32
    /// Content.
    public var content: BandRecordContent
    /// Creates a value from its fields.
    public init(sequence: UInt32, content: BandRecordContent) {
        self.sequence = sequence
        self.content = content
    }
}

/// The kinds of once-only records, with their frame type and stream name.
public enum BandRecordKind: UInt8, Sendable, Hashable, CaseIterable, Codable {
    case today = 0x20
    case day = 0x21
    case sport = 0x22
    case sleep = 0x23
    case heartRate = 0x24
    case supportedSports = 0x25
    case takePicture = 0x26
    case searchPhone = 0x27

    /// The event stream's name.
    public var streamName: String {
        switch self {
        case .today: "Today totals"
        case .day: "Daily totals"
        case .sport: "Sport sessions"
        case .sleep: "Sleep segments"
        case .heartRate: "Hourly heart rate"
        case .supportedSports: "Supported sports"
        case .takePicture: "Take picture"
        case .searchPhone: "Search phone"
        }
    }

    /// A short word for reports and record ids.
    public var word: String {
        switch self {
        case .today: "today"
        case .day: "day"
        case .sport: "sport"
        case .sleep: "sleep"
        case .heartRate: "hr"
        case .supportedSports: "sports"
        case .takePicture: "picture"
        case .searchPhone: "search"
        }
    }
}
