/// Today's totals (the SDK's `CurrentWholeDaySportDataNotification`). The band's date fields are ignored: these
/// are always today's, as the host sees today.
public struct BandTodayTotals: Sendable, Hashable, Codable {
    /// Steps.
    public var steps: Int
    /// Calories as the band counts them (kcal).
    public var calories: Int
    /// Distance in metres.
    public var distance: Int
    /// Creates a value from its fields.
    public init(steps: Int, calories: Int, distance: Int) {
        self.steps = steps
        self.calories = calories
        self.distance = distance
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

/// The sports the band supports (`SupportSportsListNotification`) and how many can be active at once.
public struct BandSupportedSports: Sendable, Hashable, Codable {
    /// Sports.
    public var sports: [BandSport]
    /// Maximum active.
    public var maximumActive: Int
    /// Creates a value from its fields.
    public init(sports: [BandSport], maximumActive: Int) {
        self.sports = sports
        self.maximumActive = maximumActive
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
    case supportedSports(BandSupportedSports)
    case takePicture(BandButtonEvent)
    case searchPhone(BandButtonEvent)

    /// Whether it is a press of the take-picture or search-phone button, which the band sends as it happens.
    public var isButtonPress: Bool {
        switch self {
        case .takePicture, .searchPhone: true
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
        case .supportedSports: .supportedSports
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
