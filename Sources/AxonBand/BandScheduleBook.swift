/// The schedules a band holds, as far as Axon knows: what the seed's "at most 4 a day, never two at the same
/// date and time" rules are checked against. ``BandSession`` keeps one up to date from the band's answers; the
/// simulated band keeps its own.
///
/// Threading: a value type; share freely.
public struct BandScheduleBook: Sendable, Hashable, Codable {
    /// Schedules by slot (`yyyy-MM-dd HH:mm`).
    public private(set) var schedules: [String: BandSchedule] = [:]

    /// Creates a value from its fields.
    public init(_ schedules: [BandSchedule] = []) {
        for s in schedules { self.schedules[s.slot] = s }
    }

    /// Whether a schedule sits at `slot`.
    public func contains(slot: String) -> Bool { schedules[slot] != nil }

    /// How many schedules fall on the day of `schedule`.
    public func count(onDayOf schedule: BandSchedule) -> Int {
        schedules.values.filter { ($0.year, $0.month, $0.day) == (schedule.year, schedule.month, schedule.day) }.count
    }

    /// Throws when adding `schedule` breaks a rule: ``BandCommandError/scheduleSlotTaken(slot:)`` or
    /// ``BandCommandError/scheduleDayFull(date:)``.
    public func checkAdding(_ schedule: BandSchedule) throws(BandCommandError) {
        guard !contains(slot: schedule.slot) else { throw .scheduleSlotTaken(slot: schedule.slot) }
        guard count(onDayOf: schedule) < BandSchedule.maximumPerDay else {
            throw .scheduleDayFull(date: String(schedule.slot.prefix(10)))
        }
    }

    /// Records what an accepted command changed.
    public mutating func apply(_ command: BandCommand) {
        switch command {
        case .writeSchedule(let s): schedules[s.slot] = s
        case .closeSchedule(let s): schedules[s.slot] = nil
        case .clearSchedules, .reset: schedules = [:]
        default: break
        }
    }
}
