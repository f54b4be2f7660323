/// Detects the driving events that come from the vehicle's state rather than its acceleration: over-speed, high
/// engine speed, long idle, engine start and stop, and a new diagnostic trouble code. Each rule and its default
/// threshold is in `docs/obd-events.md`.
///
/// - **Over-speed**: speed above ``Configuration/overSpeedKmh`` for at least ``Configuration/minimumDuration``;
///   the event spans the samples above, its peak is the highest speed.
/// - **High RPM**: engine speed above ``Configuration/highRPM`` for at least ``Configuration/minimumDuration``;
///   peak is the highest RPM.
/// - **Long idle**: engine running (RPM ≥ ``Configuration/runningRPM``) at 0 km/h for at least
///   ``Configuration/longIdleSeconds``; reported when the vehicle moves or the engine stops, value = seconds idle.
/// - **Engine start / stop**: RPM crosses ``Configuration/runningRPM`` upwards / falls to under it; instantaneous.
/// - **New trouble code**: the count of stored codes (PID 0x01, byte A & 0x7F) rises; value = the new count.
///
/// A hole between samples longer than ``Configuration/maximumSampleGap`` (a link loss) ends what is in progress
/// without an event for a duration rule (it cannot know the outage's speeds) and forgets the engine state, so a
/// reconnection is not taken for an engine start.
///
///     var detector = VehicleStateDetector()
///     for event in detector.add(time: t, speedKmh: 130, rpm: 3100) { print(event.kind) }
///
/// Threading: a value type with one owner (the thread feeding it samples).
public struct VehicleStateDetector: Sendable {
    /// The thresholds.
    public struct Configuration: Sendable, Hashable {
        /// Speed above which driving is over-speed, km/h (default 120).
        public var overSpeedKmh: Double
        /// Engine speed above which it is high, rpm (default 4500).
        public var highRPM: Double
        /// Engine speed from which the engine counts as running, rpm (default 400).
        public var runningRPM: Double
        /// Seconds at 0 km/h with the engine running that make a long idle (default 300).
        public var longIdleSeconds: Double
        /// Seconds over-speed or high RPM must last to count (default 3).
        public var minimumDuration: Double
        /// Seconds between samples beyond which what is in progress is dropped (default 2).
        public var maximumSampleGap: Double

        /// Creates a configuration.
        public init(
            overSpeedKmh: Double = 120, highRPM: Double = 4500, runningRPM: Double = 400, longIdleSeconds: Double = 300,
            minimumDuration: Double = 3, maximumSampleGap: Double = 2
        ) {
            precondition(overSpeedKmh > 0 && highRPM > runningRPM && runningRPM > 0 && longIdleSeconds > 0)
            precondition(minimumDuration >= 0 && maximumSampleGap > 0)
            self.overSpeedKmh = overSpeedKmh
            self.highRPM = highRPM
            self.runningRPM = runningRPM
            self.longIdleSeconds = longIdleSeconds
            self.minimumDuration = minimumDuration
            self.maximumSampleGap = maximumSampleGap
        }
    }

    /// The thresholds in use.
    public let configuration: Configuration
    private var lastTime: Double?
    private var running: Bool?
    private var overSpeed: OBDDrivingEvent?
    private var highRPM: OBDDrivingEvent?
    private var idle: OBDDrivingEvent?
    private var troubleCodes: Int?

    /// A detector with `configuration`.
    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    /// Adds one sample (`time` in Unix seconds, increasing; speed km/h; engine speed rpm, `nil` when not read) and
    /// returns the events that ended with it.
    public mutating func add(time: Double, speedKmh: Double, rpm: Double?) -> [OBDDrivingEvent] {
        var ended: [OBDDrivingEvent] = []
        if let last = lastTime, time - last > configuration.maximumSampleGap || time <= last {
            overSpeed = nil
            highRPM = nil
            idle = nil
            running = nil
        }
        lastTime = time
        track(&overSpeed, .overSpeed, above: speedKmh > configuration.overSpeedKmh, value: speedKmh, time, speedKmh)
            .map { ended.append($0) }
        if let rpm {
            track(&highRPM, .highRPM, above: rpm > configuration.highRPM, value: rpm, time, speedKmh)
                .map { ended.append($0) }
            let isRunning = rpm >= configuration.runningRPM
            if let was = running, was != isRunning {
                ended.append(instant(isRunning ? .engineStart : .engineStop, time, speedKmh, value: rpm))
            }
            running = isRunning
            if isRunning, speedKmh == 0 {
                if var current = idle {
                    current.endTime = time
                    current.value = time - current.startTime
                    idle = current
                } else {
                    idle = instant(.longIdle, time, speedKmh, value: 0)
                }
            } else if let current = idle {
                idle = nil
                if current.endTime - current.startTime >= configuration.longIdleSeconds { ended.append(current) }
            }
        }
        return ended
    }

    /// Adds a count of stored trouble codes read at `time`; a rise over the last count is a ``OBDEventKind/newTroubleCode``
    /// event (the first count read only sets the baseline).
    public mutating func add(time: Double, troubleCodeCount count: Int, speedKmh: Double) -> [OBDDrivingEvent] {
        defer { troubleCodes = count }
        guard let previous = troubleCodes, count > previous else { return [] }
        return [instant(.newTroubleCode, time, speedKmh, value: Double(count))]
    }

    /// Ends what is in progress (end of stream, disconnection): the duration events that already qualify.
    public mutating func finish() -> [OBDDrivingEvent] {
        defer {
            overSpeed = nil
            highRPM = nil
            idle = nil
            running = nil
            lastTime = nil
        }
        var ended: [OBDDrivingEvent] = []
        for event in [overSpeed, highRPM].compactMap({ $0 })
        where event.endTime - event.startTime >= configuration.minimumDuration {
            ended.append(event)
        }
        if let idle, idle.endTime - idle.startTime >= configuration.longIdleSeconds { ended.append(idle) }
        return ended
    }

    /// Extends or ends a threshold event; the event that ended and lasted long enough, if any.
    private func track(
        _ current: inout OBDDrivingEvent?, _ kind: OBDEventKind, above: Bool, value: Double, _ time: Double,
        _ speedKmh: Double
    ) -> OBDDrivingEvent? {
        if above {
            if var event = current {
                event.endTime = time
                event.endSpeedKmh = speedKmh
                event.value = max(event.value ?? value, value)
                current = event
            } else {
                current = instant(kind, time, speedKmh, value: value)
            }
            return nil
        }
        defer { current = nil }
        guard let event = current, event.endTime - event.startTime >= configuration.minimumDuration else { return nil }
        return event
    }

    private func instant(_ kind: OBDEventKind, _ time: Double, _ speedKmh: Double, value: Double) -> OBDDrivingEvent {
        OBDDrivingEvent(
            kind: kind, startTime: time, endTime: time, startSpeedKmh: speedKmh, endSpeedKmh: speedKmh,
            peakRateMphPerSecond: 0, value: value)
    }
}
