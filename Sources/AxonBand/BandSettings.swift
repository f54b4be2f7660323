/// The sedentary reminder (the band has exactly one): active hours and days.
public struct BandSedentaryReminder: Sendable, Hashable, Codable {
    /// Start hour.
    public var startHour: Int
    /// End hour.
    public var endHour: Int
    /// The SDK's week-repeat byte.
    public var weekRepeat: WeekRepeat
    /// Is on.
    public var isOn: Bool
    /// Creates a value from its fields.
    public init(startHour: Int, endHour: Int, weekRepeat: WeekRepeat, isOn: Bool) {
        self.startHour = startHour
        self.endHour = endHour
        self.weekRepeat = weekRepeat
        self.isOn = isOn
    }
}

/// The wearer's personal information (the SDK's `IwownPersonal`).
public struct BandPersonalInfo: Sendable, Hashable, Codable {
    /// Gender.
    public enum Gender: UInt8, Sendable, Hashable, Codable { case man = 0, woman = 1 }
    /// Gender.
    public var gender: Gender
    /// Centimetres.
    public var height: Int
    /// Kilograms.
    public var weight: Int
    /// Daily step target.
    public var target: Int
    /// Years.
    public var age: Int
    /// Creates a value from its fields.
    public init(gender: Gender, height: Int, weight: Int, target: Int, age: Int) {
        self.gender = gender
        self.height = height
        self.weight = weight
        self.target = target
        self.age = age
    }
    /// Axon's sane ranges (the SDK gives none): height 50–250 cm, weight 10–250 kg, target 100–100 000 steps,
    /// age 5–120 years.
    public static let heightRange = 50...250
    /// Weight range.
    public static let weightRange = 10...250
    /// Target range.
    public static let targetRange = 100...100_000
    /// Age range.
    public static let ageRange = 5...120
}

/// One of the band's eight alarms (the SDK's `IwownClock`).
public struct BandAlarm: Sendable, Hashable, Codable {
    /// 0–7.
    public var id: Int
    /// Hour of the day, 0–23.
    public var hour: Int
    /// Minute, 0–59.
    public var minute: Int
    /// The SDK's week-repeat byte.
    public var weekRepeat: WeekRepeat
    /// Switch on.
    public var switchOn: Bool
    /// The SDK's second on/off flag; both it and ``switchOn`` must be on for the alarm to ring.
    public var viable: Bool
    /// Creates a value from its fields.
    public init(id: Int, hour: Int, minute: Int, weekRepeat: WeekRepeat, switchOn: Bool, viable: Bool) {
        self.id = id
        self.hour = hour
        self.minute = minute
        self.weekRepeat = weekRepeat
        self.switchOn = switchOn
        self.viable = viable
    }
    /// The SDK's rule: an alarm rings only with switch and viable both on and at least one weekday set (the
    /// repeat flag may be off: then it rings once). Anything else is a switched-off alarm.
    public var isActive: Bool { switchOn && viable && weekRepeat.hasWeekday }
}

/// A calendar entry (the SDK's `IwownSchedule`).
public struct BandSchedule: Sendable, Hashable, Codable {
    /// Year.
    public var year: Int
    /// Month, 1–12.
    public var month: Int
    /// Day of the month.
    public var day: Int
    /// Hour of the day, 0–23.
    public var hour: Int
    /// Minute, 0–59.
    public var minute: Int
    /// At most 20 characters.
    public var title: String
    /// At most 33 characters.
    public var subtitle: String
    /// Creates a value from its fields.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, title: String, subtitle: String) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.title = title
        self.subtitle = subtitle
    }
    /// Maximum title.
    public static let maximumTitle = 20
    /// Maximum subtitle.
    public static let maximumSubtitle = 33
    /// Maximum per day.
    public static let maximumPerDay = 4

    /// The day, when valid.
    public var date: BandDate? { BandDate(year: year, month: month, day: day) }
    /// `yyyy-MM-dd HH:mm`, the schedule's identity on the band.
    public var slot: String {
        "\(year)-\(BandDate.two(month))-\(BandDate.two(day)) \(BandDate.clock(hour * 60 + minute))"
    }
}

/// The band's hardware options (the SDK's `IwownHWOption`).
public struct BandHardwareOptions: Sendable, Hashable, Codable {
    /// Units.
    public enum Units: UInt8, Sendable, Hashable, Codable { case metric = 0, imperial = 1 }
    /// Time format.
    public enum TimeFormat: UInt8, Sendable, Hashable, Codable { case twentyFourHour = 0, twelveHour = 1 }
    /// Language.
    public enum Language: UInt8, Sendable, Hashable, Codable { case english = 0, simplifiedChinese = 1 }
    /// Units.
    public var units: Units
    /// Time format.
    public var timeFormat: TimeFormat
    /// Auto sleep.
    public var autoSleep: Bool
    /// Hours 0–23 between which the night light is on.
    public var backlightStart: Int
    /// Backlight end.
    public var backlightEnd: Int
    /// White (`true`) or black background; only a 9616 has the option, so `nil` for others.
    public var whiteBackground: Bool?
    /// Language.
    public var language: Language
    /// Le switch.
    public var leSwitch: Bool
    /// Wrist switch.
    public var wristSwitch: Bool
    /// Creates a value from its fields.
    public init(
        units: Units = .metric, timeFormat: TimeFormat = .twentyFourHour, autoSleep: Bool = true,
        backlightStart: Int = 22, backlightEnd: Int = 6, whiteBackground: Bool? = nil, language: Language = .english,
        leSwitch: Bool = false, wristSwitch: Bool = true
    ) {
        self.units = units
        self.timeFormat = timeFormat
        self.autoSleep = autoSleep
        self.backlightStart = backlightStart
        self.backlightEnd = backlightEnd
        self.whiteBackground = whiteBackground
        self.language = language
        self.leSwitch = leSwitch
        self.wristSwitch = wristSwitch
    }
}

/// One active sport and its calorie target; the same list applies to all seven days.
public struct BandSportTarget: Sendable, Hashable, Codable {
    /// Sport code.
    public var sportCode: UInt8
    /// Calories, 1–65 535.
    public var target: Int
    /// Creates a value from its fields.
    public init(sportCode: UInt8, target: Int) {
        self.sportCode = sportCode
        self.target = target
    }
    /// Maximum count.
    public static let maximumCount = 5
}
