/// Detects hard braking and hard acceleration in a vehicle-speed stream.
///
/// **Rule** (`docs/obd-events.md`): the rate of change of speed is measured over a sliding window of
/// ``Configuration/window`` seconds (1 s): (v(now) − v(oldest sample in the window)) ÷ their time apart. An event
/// starts when that rate passes ``Configuration/threshold`` (7 mph/s, about 11.3 km/h/s or 0.32 g) —
/// downwards for braking, upwards for acceleration — and lasts while it stays past the threshold. Its start speed is
/// the speed at the start of the window that first crossed, its end speed the speed of its last sample, its peak the
/// largest windowed rate. A hole in the samples longer than ``Configuration/maximumSampleGap`` (2 s: a link loss)
/// restarts the window, so no event spans an outage.
///
/// The window keeps a 1 km/h step between two samples at 5 Hz (0.62 mph in 0.2 s = 3.1 mph/s if measured sample to
/// sample) from looking like a hard stop: over 1 s it is 0.62 mph/s.
///
///     var detector = DrivingEventDetector()
///     for (time, kmh) in trace { for event in detector.add(time: time, speedKmh: kmh) { print(event) } }
///
/// Threading: a value type with one owner (the thread feeding it speeds).
public struct DrivingEventDetector: Sendable {
    /// km/h in one mph.
    public static let kmhPerMph = 1.609344

    /// The thresholds.
    public struct Configuration: Sendable, Hashable {
        /// mph/s that the windowed rate must pass (7 mph/s by default).
        public var threshold: Double
        /// Seconds of the window the rate is measured over.
        public var window: Double
        /// Seconds between samples beyond which the window restarts.
        public var maximumSampleGap: Double

        /// Creates a configuration.
        public init(threshold: Double = 7, window: Double = 1, maximumSampleGap: Double = 2) {
            precondition(threshold > 0 && window > 0 && maximumSampleGap > 0)
            self.threshold = threshold
            self.window = window
            self.maximumSampleGap = maximumSampleGap
        }
    }

    /// The thresholds in use.
    public let configuration: Configuration
    private var samples: [(time: Double, kmh: Double)] = []
    private var active: OBDDrivingEvent?

    /// A detector with `configuration`.
    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    /// Adds one speed sample (`time` in seconds, increasing; speed in km/h) and returns the events that ended with
    /// it (at most one). Complexity: O(samples in the window).
    public mutating func add(time: Double, speedKmh: Double) -> [OBDDrivingEvent] {
        var ended: [OBDDrivingEvent] = []
        if let last = samples.last, time - last.time > configuration.maximumSampleGap || time <= last.time {
            if let event = active { ended.append(event) }
            active = nil
            samples.removeAll(keepingCapacity: true)
        }
        samples.append((time, speedKmh))
        while samples.count > 2, time - samples[1].time >= configuration.window { samples.removeFirst() }
        guard samples.count >= 2, let first = samples.first, time - first.time > 0 else { return ended }
        let rate = (speedKmh - first.kmh) / Self.kmhPerMph / (time - first.time)
        let kind: OBDEventKind? =
            rate <= -configuration.threshold ? .hardBraking : rate >= configuration.threshold ? .hardAcceleration : nil
        if var event = active, event.kind == kind {
            event.endTime = time
            event.endSpeedKmh = speedKmh
            event.peakRateMphPerSecond = max(event.peakRateMphPerSecond, abs(rate))
            active = event
            return ended
        }
        if let event = active { ended.append(event) }
        active = kind.map {
            OBDDrivingEvent(
                kind: $0, startTime: first.time, endTime: time, startSpeedKmh: first.kmh, endSpeedKmh: speedKmh,
                peakRateMphPerSecond: abs(rate))
        }
        return ended
    }

    /// Ends an event in progress (end of stream, disconnection) and returns it.
    public mutating func finish() -> OBDDrivingEvent? {
        defer {
            active = nil
            samples.removeAll()
        }
        return active
    }
}
