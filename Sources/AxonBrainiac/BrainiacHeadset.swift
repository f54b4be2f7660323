import AxonStreams

/// Facts about the Brainiac headset that every part of the adapter shares: rate, channels, unit, and the
/// descriptor of its EEG stream.
///
///     let descriptor = BrainiacHeadset.descriptor(sourceID: "brainiac-00:11:22:33:44:55")
///     let pipeline = StreamPipeline(descriptor: descriptor, sinks: [sink],
///                                   configuration: .init(timeline: BrainiacHeadset.timelineConfiguration))
///
/// Threading: constants and pure functions; use from any thread.
public enum BrainiacHeadset {
    /// Samples per second.
    public static let sampleRate = 250.0
    /// Channel labels in stream order (the SDK's `ch1` … `ch4`).
    public static let channelLabels = ["T3", "O1", "T4", "O2"]
    /// The unit of every channel.
    public static let unit = "µV"
    /// The range the 24-bit counts can express, in µV.
    public static let range = BrainiacPacketLayout.microvolts(fromCount: BrainiacPacketLayout.minimumCount)
        ... BrainiacPacketLayout.microvolts(fromCount: BrainiacPacketLayout.maximumCount)

    /// The descriptor of the headset's EEG stream: "Brainiac", EEG, T3/O1/T4/O2 in µV with the 24-bit range,
    /// 250 Hz, native format `int24`.
    ///
    /// - Parameters:
    ///   - sourceID: stable across reconnects (the headset's Bluetooth address for real hardware).
    ///   - metadata: extra facts, merged over the defaults (`device`, `packetLayout`, `resolution`).
    public static func descriptor(sourceID: String, metadata: [String: String] = [:]) -> StreamDescriptor {
        let defaults = [
            "device": "Brainiac", "packetLayout": "\(BrainiacPacketLayout.version)",
            "resolution": "0.05 µV",
        ]
        return StreamDescriptor(
            name: "Brainiac", contentType: .eeg,
            channels: channelLabels.map { ChannelInfo(label: $0, unit: unit, range: range) },
            nominalRate: sampleRate, format: .int24, sourceID: sourceID,
            metadata: defaults.merging(metadata) { _, new in new })
    }

    /// The stream timeline settings the headset needs: its sample counter wraps at 2³².
    public static let timelineConfiguration = StreamTimeline.Configuration(
        counterModulus: BrainiacPacketLayout.counterModulus)
}
