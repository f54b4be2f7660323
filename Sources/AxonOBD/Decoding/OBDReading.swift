/// One value read from the vehicle: what was asked, what came back and what it means.
///
/// `raw` keeps the answer's data bytes (after the `41 PP` echo for mode 01) so a check can recompute the value with
/// the formula; for custom PIDs it holds the bytes of the answers they were derived from, in request order.
///
/// Threading: a value type; share freely.
public struct OBDReading: Sendable, Hashable, Codable {
    /// The seed's PID number (0–255 standard, 256+ custom).
    public var pid: Int
    /// The PID's name ("engine_speed").
    public var name: String
    /// The numeric value, when the PID has one.
    public var value: Double?
    /// The text value (VIN, trouble codes, supported PIDs), when the PID has one.
    public var text: String?
    /// The unit of ``value`` ("rpm"); "" for text.
    public var unit: String
    /// The data bytes the value was decoded from.
    public var raw: [UInt8]
    /// Host monotonic time when the answer arrived (``AxonStreams/HostClock``).
    public var time: Double

    /// Creates a reading.
    public init(pid: Int, name: String, value: Double?, text: String?, unit: String, raw: [UInt8], time: Double) {
        self.pid = pid
        self.name = name
        self.value = value
        self.text = text
        self.unit = unit
        self.raw = raw
        self.time = time
    }
}
