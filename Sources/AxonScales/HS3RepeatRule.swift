/// The HS3 sends a weight more than once. As openScale does, a weight equal to the last one taken, within
/// ``window`` seconds of it, is the same measurement and is not taken again; a different weight, or the same one
/// later, is a new measurement (and restarts the window).
///
/// Threading: a value type with one owner.
public struct HS3RepeatRule: Sendable, Hashable {
    /// Seconds within which an equal weight is a repeat (openScale: 60).
    public var window: Double
    /// The last weight taken (0.1 kg) and when (Unix seconds).
    public private(set) var last: (tenthsOfKg: Int, time: Double)? {
        get { lastTenths.map { ($0, lastTime) } }
        set {
            lastTenths = newValue?.tenthsOfKg
            lastTime = newValue?.time ?? 0
        }
    }
    private var lastTenths: Int?
    private var lastTime = 0.0

    /// A rule with `window` seconds (default 60), optionally seeded with the last measurement already stored (so
    /// a scale still repeating it when the command restarts does not store it twice).
    public init(window: Double = 60, last: (tenthsOfKg: Int, time: Double)? = nil) {
        self.window = window
        self.last = last
    }

    /// Whether the weight at `time` is a new measurement; if it is, it becomes the last one.
    public mutating func take(tenthsOfKg: Int, at time: Double) -> Bool {
        if let last, last.tenthsOfKg == tenthsOfKg, time - last.time < window, time >= last.time { return false }
        last = (tenthsOfKg, time)
        return true
    }
}
