import AxonStreams

/// The descriptors of a scale's live streams.
///
/// Threading: pure functions.
public enum ScaleStreams {
    /// The weight while it settles (unstable), kg, irregular.
    public static func liveWeight(sourceID: String) -> StreamDescriptor {
        StreamDescriptor(
            name: "Live weight", contentType: "Weight", channels: [ChannelInfo(label: "weight", unit: "kg")],
            nominalRate: 0, format: .float64, sourceID: sourceID)
    }

    /// The stable weight, kg, irregular.
    public static func stableWeight(sourceID: String) -> StreamDescriptor {
        StreamDescriptor(
            name: "Stable weight", contentType: "Weight", channels: [ChannelInfo(label: "weight", unit: "kg")],
            nominalRate: 0, format: .float64, sourceID: sourceID)
    }
}
