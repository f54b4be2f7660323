import Foundation

/// One record a device handed over, as the ``EventStore`` keeps it: the device's own identity for the record,
/// its times and a `Codable` payload (stored as JSON text with sorted keys).
///
/// `deviceRecordID` is what makes inserts idempotent: the same id in the same stream is stored once. Use what
/// the device itself numbers its records by — a scale's memory slot plus its timestamp, a band's record
/// number, an OBD batch and event index — never something the host makes up on arrival.
///
/// Threading: a value type; `Sendable` when the payload is.
public struct StoredEvent<Payload: Codable> {
    /// The device's identity for this record; unique within a stream, never empty.
    public var deviceRecordID: String
    /// The device's own timestamp, Unix seconds, when the device gives one.
    public var deviceTime: Double?
    /// When the host received the record: wall-clock Unix seconds (not ``AxonStreams/HostClock``'s monotonic
    /// time, which means nothing after a reboot, and a store outlives reboots).
    public var hostTime: Double
    /// What the device reported.
    public var payload: Payload

    /// Creates a record; `hostTime` defaults to the wall clock now.
    public init(
        deviceRecordID: String, deviceTime: Double? = nil, hostTime: Double = Date().timeIntervalSince1970,
        payload: Payload
    ) {
        self.deviceRecordID = deviceRecordID
        self.deviceTime = deviceTime
        self.hostTime = hostTime
        self.payload = payload
    }

    /// The time the store orders and queries by: the device's time, falling back to the host's.
    public var time: Double { deviceTime ?? hostTime }
}

extension StoredEvent: Sendable where Payload: Sendable {}
extension StoredEvent: Equatable where Payload: Equatable {}
