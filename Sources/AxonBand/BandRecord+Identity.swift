import Foundation

extension BandRecordContent {
    /// The record's identity in the event store: `<kind>/<date-time>[/<detail>]`, never the band's sequence number
    /// (which restarts after a band reset). The same record sent twice has the same identity.
    ///
    /// `today` is the host's date for today's totals (the band's date fields are ignored); their identity carries
    /// the sport and every total, so a later, larger total is a new record and the same totals again a duplicate.
    /// A supported-sports entry is known by its sport.
    public func identity(today: BandDate) -> String {
        switch self {
        case .today(let t):
            if let sport = t.sport {
                "today/\(today)/\(sport.code)/steps=\(t.steps),kcal=\(t.calories),m=\(t.distance),count=\(t.count ?? 0)"
            } else {
                "today/\(today)/steps=\(t.steps)"  // the axon-band-1 identity
            }
        case .day(let d): "day/\(d.date)/\(d.sport.code)"
        case .sport(let s): "sport/\(s.date) \(BandDate.clock(s.startMinute))/\(s.sport.code)"
        case .sleep(let s): "sleep/\(s.date) \(BandDate.clock(s.startMinute))"
        case .heartRate(let h): "hr/\(h.date) \(BandDate.two(h.hour)):00"
        case .supportedSport(let s): "sports/\(s.entry.sport.code)"
        case .takePicture(let e): "picture/\(e.date) \(Self.clock(seconds: e.second))"
        case .searchPhone(let e): "search/\(e.date) \(Self.clock(seconds: e.second))"
        }
    }

    /// The record's device time (Unix seconds, the band's wall clock read in `timeZone`); `nil` when it has none.
    public func deviceTime(today: BandDate, timeZone: TimeZone) -> Double? {
        switch self {
        case .today: today.unixTime(minute: 0, in: timeZone)
        case .day(let d): d.date.unixTime(minute: 0, in: timeZone)
        case .sport(let s): s.date.unixTime(minute: s.startMinute, in: timeZone)
        case .sleep(let s): s.date.unixTime(minute: s.startMinute, in: timeZone)
        case .heartRate(let h): h.date.unixTime(minute: h.hour * 60, in: timeZone)
        case .supportedSport: nil
        case .takePicture(let e), .searchPhone(let e): e.date.unixTime(minute: 0, in: timeZone) + Double(e.second)
        }
    }

    private static func clock(seconds: Int) -> String {
        BandDate.clock(seconds / 60) + ":" + BandDate.two(seconds % 60)
    }
}
