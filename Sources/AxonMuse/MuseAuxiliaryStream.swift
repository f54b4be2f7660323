import AxonDevices
import AxonStreams

/// The Muse's streams besides EEG, each with a descriptor of its own in the same session (source IDs
/// `<EEG source ID>/telemetry`, `/accelerometer`, `/gyroscope`, `/ppg`).
///
/// | stream | channels | unit | rate |
/// |---|---|---|---|
/// | ``telemetry`` | battery, fuel gauge, ADC, temperature | %, mV, raw, raw | irregular (the headset sends about one a second) |
/// | ``accelerometer`` | X, Y, Z | g | 52 Hz (3 samples per notification) |
/// | ``gyroscope`` | X, Y, Z | deg/s | 52 Hz |
/// | ``ppg`` | ambient, infrared, red | raw counts | 64 Hz (6 samples per notification and channel; Muse 2 / S) |
///
/// Threading: a value type; share freely.
public enum MuseAuxiliaryStream: String, Sendable, Hashable, CaseIterable {
    /// Battery and the other telemetry fields.
    case telemetry
    /// The accelerometer.
    case accelerometer
    /// The gyroscope.
    case gyroscope
    /// The photoplethysmograph (Muse 2 / S).
    case ppg

    /// The stream's descriptor, for the headset whose EEG stream has `sourceID`.
    public func descriptor(sourceID: String) -> StreamDescriptor {
        switch self {
        case .telemetry:
            return StreamDescriptor(
                name: "Muse telemetry", contentType: "Telemetry",
                channels: [
                    ChannelInfo(label: "battery", unit: "%", range: 0...100),
                    ChannelInfo(label: "fuelGauge", unit: "mV"),
                    ChannelInfo(label: "adc", unit: "raw"), ChannelInfo(label: "temperature", unit: "raw"),
                ],
                nominalRate: 0, format: .float64, sourceID: sourceID + "/telemetry")
        case .accelerometer:
            return StreamDescriptor(
                name: "Muse accelerometer", contentType: "Accelerometer",
                channels: ["X", "Y", "Z"].map { ChannelInfo(label: $0, unit: "g", range: -2...2) }, nominalRate: 52,
                format: .float32, sourceID: sourceID + "/accelerometer")
        case .gyroscope:
            return StreamDescriptor(
                name: "Muse gyroscope", contentType: "Gyroscope",
                channels: ["X", "Y", "Z"].map { ChannelInfo(label: $0, unit: "deg/s", range: -245...245) },
                nominalRate: 52, format: .float32, sourceID: sourceID + "/gyroscope")
        case .ppg:
            return StreamDescriptor(
                name: "Muse PPG", contentType: "PPG",
                channels: ["ambient", "infrared", "red"].map {
                    ChannelInfo(label: $0, unit: "counts", range: 0...16_777_215)
                },
                nominalRate: 64, format: .int32, sourceID: sourceID + "/ppg")
        }
    }
}

/// One notification's worth of an auxiliary stream: the packet index and its frames (one value per channel of
/// ``MuseAuxiliaryStream/descriptor(sourceID:)``, in its units).
///
/// Threading: a value type; share freely.
public struct MuseAuxiliarySample: Sendable, Hashable {
    /// Which stream.
    public var stream: MuseAuxiliaryStream
    /// The packet index (uint16, wrapping).
    public var packetIndex: UInt16
    /// The host monotonic time the (last) notification arrived.
    public var arrivalTime: Double
    /// The frames, oldest first: 1 for telemetry, 3 for motion, 6 for PPG.
    public var frames: [[Double]]

    /// Creates a sample.
    public init(stream: MuseAuxiliaryStream, packetIndex: UInt16, arrivalTime: Double, frames: [[Double]]) {
        self.stream = stream
        self.packetIndex = packetIndex
        self.arrivalTime = arrivalTime
        self.frames = frames
    }
}

/// Gathers the three PPG channels' notifications of one packet index into frames [ambient, infrared, red].
///
/// Threading: not thread-safe; one delivery thread.
struct MusePPGAssembler {
    private var index: UInt16?
    private var channels: [[UInt32]?] = [nil, nil, nil]
    /// Indices dropped because a channel was missing when the next index began.
    private(set) var incomplete = 0

    /// Adds a notification of `channel` (0 ambient, 1 infrared, 2 red); returns the packet's frames when complete.
    mutating func add(_ packet: MuseAuxiliaryPacket.PPG, channel: Int) -> (UInt16, [[Double]])? {
        if index != packet.index {
            if index != nil, channels.contains(where: { $0 != nil }) { incomplete += 1 }
            index = packet.index
            channels = [nil, nil, nil]
        }
        channels[channel] = packet.samples
        guard channels.allSatisfy({ $0 != nil }) else { return nil }
        let complete = channels.map { $0! }
        channels = [nil, nil, nil]
        index = nil
        return (packet.index, (0..<6).map { k in complete.map { Double($0[k]) } })
    }
}
