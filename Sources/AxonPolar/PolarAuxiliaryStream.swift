import AxonStreams

/// A Polar H10's streams besides ECG, each with a descriptor of its own in the same session (source IDs
/// `<ECG source ID>/accelerometer`, `/heartRate`, `/rr`).
///
/// | stream | channels | unit | rate |
/// |---|---|---|---|
/// | ``accelerometer`` | X, Y, Z | mG | the started rate (25, 50, 100 or 200 Hz; 36 samples per notification at 200 Hz) |
/// | ``heartRate`` | HR | bpm | irregular (one per Heart Rate Measurement, about once a second) |
/// | ``rrInterval`` | RR | ms | irregular (one per beat) |
///
/// Threading: a value type; share freely.
public enum PolarAuxiliaryStream: String, Sendable, Hashable, CaseIterable {
    /// The accelerometer (PMD measurement type 2).
    case accelerometer
    /// Beats per minute from the Heart Rate Measurement characteristic.
    case heartRate
    /// RR intervals (the time between consecutive beats) from the Heart Rate Measurement characteristic.
    case rrInterval = "rr"

    /// The stream's descriptor, for the strap whose ECG stream has `sourceID`; `accelerometerRate` is the started
    /// ACC rate (ignored by the irregular streams).
    public func descriptor(sourceID: String, accelerometerRate: Double = 200, accelerometerRange: Double = 8)
        -> StreamDescriptor
    {
        switch self {
        case .accelerometer:
            let limit = accelerometerRange * 1000
            return StreamDescriptor(
                name: "Polar H10 accelerometer", contentType: "Accelerometer",
                channels: ["X", "Y", "Z"].map { ChannelInfo(label: $0, unit: "mG", range: -limit...limit) },
                nominalRate: accelerometerRate, format: .float32, sourceID: sourceID + "/accelerometer")
        case .heartRate:
            return StreamDescriptor(
                name: "Polar H10 heart rate", contentType: .heartRate,
                channels: [ChannelInfo(label: "HR", unit: "bpm", range: 0...255)], nominalRate: 0, format: .float32,
                sourceID: sourceID + "/heartRate")
        case .rrInterval:
            return StreamDescriptor(
                name: "Polar H10 RR intervals", contentType: "RRInterval",
                channels: [ChannelInfo(label: "RR", unit: "ms", range: 0...65_535)], nominalRate: 0, format: .float64,
                sourceID: sourceID + "/rr")
        }
    }
}

/// One notification's worth of an auxiliary stream: its frames (one value per channel of the stream's descriptor,
/// in its units) and each frame's time on the host's monotonic clock.
///
/// - ``PolarAuxiliaryStream/accelerometer``: the frame's samples; `hostTimes` end at the arrival, spaced at the rate;
///   `deviceTimes` are the strap's (seconds since 2000-01-01), `firstSampleIndex` counts samples on the strap's clock
///   from the first ACC frame, so a jump is a lost notification.
/// - ``PolarAuxiliaryStream/heartRate``: one frame, at the arrival.
/// - ``PolarAuxiliaryStream/rrInterval``: one frame per RR interval, oldest first; a beat's host time is the arrival
///   minus the intervals that follow it in the notification (the strap sends an interval after the beat that ends it).
///
/// Threading: a value type; share freely.
public struct PolarAuxiliarySample: Sendable, Hashable {
    /// Which stream.
    public var stream: PolarAuxiliaryStream
    /// The host monotonic time the notification arrived.
    public var arrivalTime: Double
    /// The frames, oldest first.
    public var frames: [[Double]]
    /// Each frame's host monotonic time.
    public var hostTimes: [Double]
    /// Each frame's time on the strap's clock (seconds since 2000-01-01T00:00:00Z), accelerometer only.
    public var deviceTimes: [Double]?
    /// The first frame's sample index on the strap's clock since the stream's first frame, accelerometer only.
    public var firstSampleIndex: Int64?

    /// Creates a sample.
    public init(
        stream: PolarAuxiliaryStream, arrivalTime: Double, frames: [[Double]], hostTimes: [Double],
        deviceTimes: [Double]? = nil, firstSampleIndex: Int64? = nil
    ) {
        self.stream = stream
        self.arrivalTime = arrivalTime
        self.frames = frames
        self.hostTimes = hostTimes
        self.deviceTimes = deviceTimes
        self.firstSampleIndex = firstSampleIndex
    }
}
