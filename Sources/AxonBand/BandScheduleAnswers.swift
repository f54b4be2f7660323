/// The band's answer to ``BandCommand/readScheduleInfo(_:)`` (the seed's `responseOfScheduleInfoGetting:`): how many
/// schedules it holds, and how many of one day's ``BandSchedule/maximumPerDay`` are used and free.
///
/// Threading: a value type; share freely.
public struct BandScheduleInfo: Sendable, Hashable, Codable {
    /// The day asked about.
    public var date: BandDate
    /// Schedules on that day.
    public var used: Int
    /// Schedules that day can still take (4 − ``used``).
    public var free: Int
    /// Schedules the band holds, all days together.
    public var held: Int
    /// Creates a value from its fields.
    public init(date: BandDate, used: Int, free: Int, held: Int) {
        self.date = date
        self.used = used
        self.free = free
        self.held = held
    }
}

/// One frame of the band's answer to ``BandCommand/readSchedules``: schedule `index` of the `count` it holds, or,
/// with `count` 0, the answer that it holds none (`schedule` `nil`).
///
/// Threading: a value type; share freely.
public struct BandScheduleEntry: Sendable, Hashable {
    /// Place in the list, from 0.
    public var index: Int
    /// How many schedules the band holds.
    public var count: Int
    /// The schedule; `nil` only when `count` is 0.
    public var schedule: BandSchedule?
    /// Creates a value from its fields.
    public init(index: Int, count: Int, schedule: BandSchedule?) {
        self.index = index
        self.count = count
        self.schedule = schedule
    }

    /// The frames a band holding `book` answers with: one per schedule in date and time order, or one saying none.
    public static func answer(_ book: BandScheduleBook) -> [BandScheduleEntry] {
        let ordered = book.schedules.keys.sorted().map { book.schedules[$0]! }
        guard !ordered.isEmpty else { return [BandScheduleEntry(index: 0, count: 0, schedule: nil)] }
        return ordered.enumerated().map { BandScheduleEntry(index: $0, count: ordered.count, schedule: $1) }
    }
}

extension BandScheduleBook {
    /// What the band answers to ``BandCommand/readScheduleInfo(_:)`` for `date`.
    public func info(on date: BandDate) -> BandScheduleInfo {
        let used = schedules.values.filter { $0.date == date }.count
        return BandScheduleInfo(
            date: date, used: used, free: max(0, BandSchedule.maximumPerDay - used), held: schedules.count)
    }
}
