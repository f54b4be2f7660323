/// One sample of an irregular stream: a typed payload and its times.
///
/// Used for things a device reports now and then — a stable weight, a sleep segment, a hard-braking event, a
/// status change. Regular numeric streams use frames in an `SPSCRing<Double>` instead (see ``FrameLayout``).
///
/// Threading: a value type; `Sendable` when the payload is.
public struct EventSample<Payload> {
    /// What happened.
    public var payload: Payload
    /// Host monotonic arrival time, in seconds (``HostClock``).
    public var arrivalTime: Double
    /// The device's own timestamp in seconds, when the device gives one.
    public var deviceTime: Double?
    /// The device's own counter, when it gives one.
    public var counter: UInt64?

    /// Creates an event sample; `arrivalTime` defaults to now.
    public init(payload: Payload, arrivalTime: Double = HostClock.now(), deviceTime: Double? = nil,
                counter: UInt64? = nil) {
        self.payload = payload
        self.arrivalTime = arrivalTime
        self.deviceTime = deviceTime
        self.counter = counter
    }
}

extension EventSample: Sendable where Payload: Sendable {}
extension EventSample: Equatable where Payload: Equatable {}
