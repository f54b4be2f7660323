/// A command Axon writes to the band's command characteristic (docs/band-protocol.md has the bytes).
///
/// Build one, call ``BandSession/send(_:)``: it is validated against the seed's limits first
/// (``validate(model:schedules:)``), so a bad value never reaches the band.
///
/// Threading: a value type; share freely.
public enum BandCommand: Sendable, Hashable {
    /// Send the records after sequence `after` (0: all the band holds), one at a time, each after the previous
    /// one's acknowledgement; then ``BandNotification/syncDone(lastSequence:)``.
    case sync(after: UInt32)
    /// The record `sequence` is stored durably: the band may forget it and send the next.
    case acknowledge(sequence: UInt32)
    case getDeviceInfo
    case getBattery
    case getSupportedSports
    /// Today's totals, as a `today` record.
    case getCurrentSportData
    /// How many schedules the band holds, and how many of `date`'s four are used and free (the seed's
    /// `readScheduleInfo`): answered with ``BandNotification/scheduleInfo(_:)``.
    case readScheduleInfo(BandDate)
    /// Every schedule the band holds, whoever wrote it (the seed's `readSchedule`, for all of them at once): answered
    /// with one ``BandNotification/scheduleEntry(_:)`` per schedule, or one saying there are none.
    case readSchedules
    case sedentary(BandSedentaryReminder)
    case personalInfo(BandPersonalInfo)
    case alarm(BandAlarm)
    case writeSchedule(BandSchedule)
    case closeSchedule(BandSchedule)
    case clearSchedules
    case hardwareOptions(BandHardwareOptions)
    case sportTargets([BandSportTarget])
    /// Text the band shows at once: 1–64 bytes of UTF-8 (Axon's framing limit; the SDK gives none).
    case pushText(String)
    /// The take-picture button on (`true`) or off.
    case cameraMode(Bool)
    /// Hourly heart-rate records after every complete hour.
    case heartRateAutoSync(Bool)
    /// Activity and sport records sent as they complete.
    case sportDataAutoSync(Bool)
    case reset

    /// The frame type of each command.
    public var type: UInt8 {
        switch self {
        case .sync: 0x01
        case .acknowledge: 0x02
        case .getDeviceInfo: 0x03
        case .getBattery: 0x04
        case .getSupportedSports: 0x05
        case .getCurrentSportData: 0x06
        case .readScheduleInfo: 0x07
        case .readSchedules: 0x08
        case .sedentary: 0x40
        case .personalInfo: 0x41
        case .alarm: 0x42
        case .writeSchedule: 0x43
        case .closeSchedule: 0x44
        case .clearSchedules: 0x45
        case .hardwareOptions: 0x46
        case .sportTargets: 0x47
        case .pushText: 0x48
        case .cameraMode: 0x49
        case .heartRateAutoSync: 0x4A
        case .sportDataAutoSync: 0x4B
        case .reset: 0x4C
        }
    }

    /// Whether the band answers it with a ``BandNotification/response(command:accepted:)`` (the settings).
    public var expectsResponse: Bool { type >= 0x40 }

    /// Maximum push text bytes.
    public static let maximumPushTextBytes = 64
}
