/// Events delivered together with one acknowledgement id (the seed's `onParsedUDPDataReceived(udpMessages:
/// acknowledgementId:)`).
///
/// Threading: a value type; share freely.
public struct OBDEventBatch: Sendable, Hashable, Codable {
    /// The id to acknowledge with ("batch-3"); the same batch delivered again carries the same id.
    public var acknowledgementID: String
    /// The events, in the order they happened, with their record ids.
    public var events: [OBDStoredDrivingEvent]

    /// Creates a batch.
    public init(acknowledgementID: String, events: [OBDStoredDrivingEvent]) {
        self.acknowledgementID = acknowledgementID
        self.events = events
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
