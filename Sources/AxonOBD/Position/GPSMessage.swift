import AxonStreams

/// One position fix from gpsd: a `TPV` report with `mode` ≥ 2 (2D or 3D).
///
/// Threading: a value type; share freely.
public struct GPSFix: Sendable, Hashable, Codable {
    /// Unix seconds of the fix (gpsd's `time`, UTC).
    public var time: Double
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Metres above mean sea level (`altMSL`, else `alt`); `nil` in a 2D fix.
    public var altitude: Double?
    /// Metres per second over ground; `nil` when the receiver gave none.
    public var speed: Double?
    /// Degrees from true north; `nil` when the receiver gave none.
    public var track: Double?
    /// 2 (2D fix) or 3 (3D fix).
    public var mode: Int

    /// Creates a fix.
    public init(
        time: Double, latitude: Double, longitude: Double, altitude: Double?, speed: Double?, track: Double?, mode: Int
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.track = track
        self.mode = mode
    }

    /// The position a driving event's header takes from this fix.
    public var position: OBDPosition { OBDPosition(latitude: latitude, longitude: longitude, time: time) }
}

/// The satellites of one gpsd `SKY` report: how many the receiver sees and how many its fix uses.
///
/// Threading: a value type; share freely.
public struct GPSSatellites: Sendable, Hashable, Codable {
    /// Unix seconds: the report's own `time` when gpsd gives one, else the time of the fix received before it (gpsd
    /// 3.22 sends `SKY` without a time, after the `TPV` of the same receiver cycle); `nil` before any fix.
    public var time: Double?
    /// Satellites in view (`nSat`, else the length of `satellites`).
    public var seen: Int
    /// Satellites used in the fix (`uSat`, else those of `satellites` marked `used`).
    public var used: Int

    /// Creates a satellite count.
    public init(time: Double?, seen: Int, used: Int) {
        self.time = time
        self.seen = seen
        self.used = used
    }
}

/// One GPS message as a sample of its stream: a fix of ``GPSDClient/fixDescriptor(sourceID:)``'s stream or a
/// satellite count of ``GPSDClient/satellitesDescriptor(sourceID:)``'s. The sample's `deviceTime` is the receiver's
/// time (Unix seconds), its `arrivalTime` the host's monotonic clock when gpsd's line was read, its `counter` the
/// report's number in its stream since the client started (from 0).
///
/// Threading: a value type; share freely.
public enum GPSMessage: Sendable, Equatable {
    /// A `TPV` report with a fix.
    case fix(EventSample<GPSFix>)
    /// A `SKY` report.
    case satellites(EventSample<GPSSatellites>)
}

extension GPSMessage {
    /// Whether ``GPSDClient`` stores it in its log: every fix, and every satellite count with a time.
    var isStorable: Bool {
        if case .satellites(let sample) = self { return sample.payload.time != nil }
        return true
    }
}

/// What one line of gpsd JSON reports (``GPSDClient/message(fromLine:lastFixTime:)``).
///
/// Threading: a value type; share freely.
public enum GPSReport: Sendable, Hashable, Codable {
    /// A `TPV` with a fix.
    case fix(GPSFix)
    /// A `SKY`.
    case satellites(GPSSatellites)
}

extension StreamContentType {
    /// Satellite navigation: position fixes and satellite counts.
    public static let gps: Self = "GPS"
}
