/// The kinds of driving events Axon detects (the seed's event PIDs); at most five are registered at once
/// (``OBDGateway/maximumRegisteredEvents``). Thresholds: `docs/obd-events.md`.
///
/// Threading: a value type; share freely.
public enum OBDEventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Speed fell faster than the threshold (the seed's `DLEventID.hardBraking`).
    case hardBraking
    /// Speed rose faster than the threshold (the seed's `DLEventID.hardAcceleration`).
    case hardAcceleration
    /// Speed above the limit for long enough (``VehicleStateDetector``); value: the highest speed, km/h.
    case overSpeed
    /// Engine speed above the limit for long enough; value: the highest engine speed, rpm.
    case highRPM
    /// Engine running at a standstill for long enough; value: seconds idle.
    case longIdle
    /// The engine started; value: its engine speed, rpm.
    case engineStart
    /// The engine stopped; value: its engine speed, rpm.
    case engineStop
    /// The count of stored trouble codes rose; value: the new count.
    case newTroubleCode

    /// Whether detecting it needs engine speed (PID 0x0C) besides vehicle speed.
    public var needsEngineSpeed: Bool { [.highRPM, .longIdle, .engineStart, .engineStop].contains(self) }
}

/// Where the vehicle was when an event happened (the seed's message header), from a GPS source when one is
/// configured.
///
/// Threading: a value type; share freely.
public struct OBDPosition: Sendable, Hashable, Codable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Unix seconds of the fix.
    public var time: Double

    /// Creates a position.
    public init(latitude: Double, longitude: Double, time: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
    }
}

/// A hard-braking or hard-acceleration event, like the seed's `DLHardBrakingData` / `DLHardAccelerationData`:
/// start and end speed, the peak rate, when, and where when known.
///
/// Threading: a value type; share freely.
public struct OBDDrivingEvent: Sendable, Hashable, Codable {
    /// What happened.
    public var kind: OBDEventKind
    /// Unix seconds of the first speed sample of the event.
    public var startTime: Double
    /// Unix seconds of the last speed sample of the event.
    public var endTime: Double
    /// Speed at the start, km/h (as OBD reports it).
    public var startSpeedKmh: Double
    /// Speed at the end, km/h.
    public var endSpeedKmh: Double
    /// The largest rate of change of speed during the event, mph/s, positive for both kinds (the seed's
    /// `maxBraking` / `maxAcceleration`).
    public var peakRateMphPerSecond: Double
    /// The position header, when a GPS source is configured; `nil` otherwise.
    public var position: OBDPosition?
    /// The measure of a vehicle-state event (see each ``OBDEventKind``); `nil` for hard braking and acceleration.
    public var value: Double?

    /// Creates an event.
    public init(
        kind: OBDEventKind, startTime: Double, endTime: Double, startSpeedKmh: Double, endSpeedKmh: Double,
        peakRateMphPerSecond: Double, position: OBDPosition? = nil, value: Double? = nil
    ) {
        self.kind = kind
        self.startTime = startTime
        self.endTime = endTime
        self.startSpeedKmh = startSpeedKmh
        self.endSpeedKmh = endSpeedKmh
        self.peakRateMphPerSecond = peakRateMphPerSecond
        self.position = position
        self.value = value
    }

    /// Speed at the start, mph (the seed's `initialSpeed`).
    public var startSpeedMph: Double { startSpeedKmh / DrivingEventDetector.kmhPerMph }
    /// Speed at the end, mph (the seed's `finalSpeed`).
    public var endSpeedMph: Double { endSpeedKmh / DrivingEventDetector.kmhPerMph }

    /// The event's identity in the event store: kind and start time in milliseconds. The same speed trace gives the
    /// same ids, so a re-detected event is stored once.
    public var recordID: String { "\(kind.rawValue)@\(Int64((startTime * 1000).rounded()))" }
}
