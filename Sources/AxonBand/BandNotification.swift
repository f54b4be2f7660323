/// Everything the band notifies on its record characteristic (docs/band-protocol.md).
///
/// Threading: a value type; share freely.
public enum BandNotification: Sendable, Hashable {
    /// A once-only record, to be stored and then acknowledged.
    case record(BandRecord)
    /// The answer to `getDeviceInfo`.
    case deviceInfo(BandDeviceInfo)
    /// The answer to `getBattery`: percent.
    case battery(Int)
    /// No more records: the band has sent everything up to `lastSequence`.
    case syncDone(lastSequence: UInt32)
    /// The answer to a command: its frame type and whether the band accepted it.
    case response(command: UInt8, accepted: Bool)
    /// The answer to ``BandCommand/readScheduleInfo(_:)``.
    case scheduleInfo(BandScheduleInfo)
    /// One frame of the answer to ``BandCommand/readSchedules``.
    case scheduleEntry(BandScheduleEntry)

    static let deviceInfoType: UInt8 = 0x10
    static let batteryType: UInt8 = 0x11
    static let syncDoneType: UInt8 = 0x2F
    static let responseType: UInt8 = 0x30
    static let scheduleInfoType: UInt8 = 0x12
    static let scheduleEntryType: UInt8 = 0x13

    /// Decodes one notification value.
    ///
    /// - Throws: ``BandDecodingError`` for anything that is not exactly one well-formed frame of a known type with
    ///   every field in range.
    public init(decoding bytes: [UInt8]) throws(BandDecodingError) {
        let frame = try BandFrame(parsing: bytes)
        var r = ByteReader(frame.payload, type: frame.type)
        switch frame.type {
        case Self.deviceInfoType:
            let rawModel = try r.u16()
            guard let model = BandModel(rawValue: rawModel) else {
                throw .invalidField(type: frame.type, field: "model", value: Int(rawModel))
            }
            let firmware = "\(try r.u8()).\(try r.u8()).\(try r.u8())"
            let name = try Self.text(&r)
            self = .deviceInfo(BandDeviceInfo(model: model, firmware: firmware, name: name))
        case Self.batteryType:
            let level = Int(try r.u8())
            guard level <= 100 else { throw .invalidField(type: frame.type, field: "battery", value: level) }
            self = .battery(level)
        case Self.syncDoneType:
            self = .syncDone(lastSequence: try r.u32())
        case Self.responseType:
            let command = try r.u8()
            let status = try r.u8()
            guard status <= 1 else { throw .invalidField(type: frame.type, field: "status", value: Int(status)) }
            self = .response(command: command, accepted: status == 0)
        case Self.scheduleInfoType:
            let date = try Self.date(&r)
            let used = Int(try r.u8()), free = Int(try r.u8()), held = Int(try r.u16())
            guard used + free == BandSchedule.maximumPerDay else {
                throw .invalidField(type: frame.type, field: "schedules used", value: used)
            }
            self = .scheduleInfo(BandScheduleInfo(date: date, used: used, free: free, held: held))
        case Self.scheduleEntryType:
            let count = Int(try r.u16()), index = Int(try r.u16())
            guard count > 0 else {
                guard index == 0 else { throw .invalidField(type: frame.type, field: "schedule index", value: index) }
                self = .scheduleEntry(BandScheduleEntry(index: 0, count: 0, schedule: nil))
                break
            }
            guard index < count else { throw .invalidField(type: frame.type, field: "schedule index", value: index) }
            let date = try Self.date(&r)
            let hour = Int(try r.u8()), minute = Int(try r.u8())
            guard hour < 24, minute < 60 else {
                throw .invalidField(type: frame.type, field: "schedule time", value: hour * 100 + minute)
            }
            let title = try Self.text(&r), subtitle = try Self.text(&r)
            self = .scheduleEntry(
                BandScheduleEntry(
                    index: index, count: count,
                    schedule: BandSchedule(
                        year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, title: title,
                        subtitle: subtitle)))
        default:
            guard let kind = BandRecordKind(rawValue: frame.type) else { throw .unknownType(frame.type) }
            let sequence = try r.u32()
            self = .record(BandRecord(sequence: sequence, content: try Self.content(kind, &r)))
        }
        try r.end()
    }

    /// The frame on the wire (the simulators' side).
    public var bytes: [UInt8] {
        var w = ByteWriter()
        let type: UInt8
        switch self {
        case .deviceInfo(let info):
            type = Self.deviceInfoType
            w.u16(Int(info.model.rawValue))
            let parts = info.firmware.split(separator: ".").map { Int($0) ?? 0 } + [0, 0, 0]
            for part in parts.prefix(3) { w.u8(part) }
            w.text(info.name)
        case .battery(let level):
            type = Self.batteryType
            w.u8(level)
        case .syncDone(let last):
            type = Self.syncDoneType
            w.u32(Int(last))
        case .response(let command, let accepted):
            type = Self.responseType
            w.u8(command)
            w.u8(accepted ? 0 : 1)
        case .scheduleInfo(let info):
            type = Self.scheduleInfoType
            w.u16(info.date.year)
            w.u8(info.date.month)
            w.u8(info.date.day)
            w.u8(info.used)
            w.u8(info.free)
            w.u16(info.held)
        case .scheduleEntry(let entry):
            type = Self.scheduleEntryType
            w.u16(entry.count)
            w.u16(entry.index)
            if let s = entry.schedule {
                w.u16(s.year)
                w.u8(s.month)
                w.u8(s.day)
                w.u8(s.hour)
                w.u8(s.minute)
                w.text(s.title)
                w.text(s.subtitle)
            }
        case .record(let record):
            type = record.content.kind.rawValue
            w.u32(Int(record.sequence))
            Self.write(record.content, into: &w)
        }
        return BandFrame(type: type, payload: w.bytes).bytes
    }

    static func text(_ r: inout ByteReader) throws(BandDecodingError) -> String {
        let count = Int(try r.u8())
        let utf8 = try r.take(count)
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw .invalidField(type: r.type, field: "text", value: count)
        }
        return text
    }
}
