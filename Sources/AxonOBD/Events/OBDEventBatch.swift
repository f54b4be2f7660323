/// Events delivered together with one acknowledgement id (the seed's `onParsedUDPDataReceived(udpMessages:
/// acknowledgementId:)`).
///
/// Threading: a value type; share freely.
public struct OBDEventBatch: Sendable, Hashable, Codable {
    /// The id to acknowledge with ("batch-3"); the same batch delivered again carries the same id.
    public var acknowledgementID: String
    /// The events, in the order they happened, with their record ids.
    public var events: [OBDStoredDrivingEvent]
    /// The GPS messages stored since the previous batch (the seed's `DLGPSMessage`s among the UDP messages: fixes
    /// with time, latitude and longitude, and satellite counts), in the receiver's time order.
    public var gps: [OBDStoredGPSMessage]

    /// Creates a batch.
    public init(acknowledgementID: String, events: [OBDStoredDrivingEvent], gps: [OBDStoredGPSMessage] = []) {
        self.acknowledgementID = acknowledgementID
        self.events = events
        self.gps = gps
    }
}

/// One GPS message as the store keeps it (``OBDEventLog/recordGPS(_:)``): its record id in its stream and the
/// report.
///
/// Threading: a value type; share freely.
public struct OBDStoredGPSMessage: Sendable, Hashable, Codable {
    /// The record id in the GPS fixes or GPS satellites stream.
    public var id: String
    /// The fix or the satellite count.
    public var report: GPSReport

    /// Creates a stored GPS message.
    public init(id: String, report: GPSReport) {
        self.id = id
        self.report = report
    }

    /// The receiver's Unix time of the report (`nil`: a satellite count before any fix).
    public var time: Double? {
        switch report {
        case .fix(let fix): return fix.time
        case .satellites(let satellites): return satellites.time
        }
    }
}

/// One event as the store keeps it: its record id (the seed's message id) and the event.
///
/// Threading: a value type; share freely.
public struct OBDStoredDrivingEvent: Sendable, Hashable, Codable {
    /// The event's record id in the store (``OBDDrivingEvent/recordID``).
    public var id: String
    /// The event.
    public var event: OBDDrivingEvent

    /// Creates a stored event.
    public init(id: String, event: OBDDrivingEvent) {
        self.id = id
        self.event = event
    }
}

/// A batch and whether it was acknowledged (for listings).
///
/// Threading: a value type; share freely.
public struct OBDEventBatchState: Sendable, Hashable {
    /// The batch.
    public var batch: OBDEventBatch
    /// Whether the application acknowledged it.
    public var acknowledged: Bool
}
