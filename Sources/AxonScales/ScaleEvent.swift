import AxonDevices
import AxonRecording
import AxonStreams

/// What a ``ScaleSession`` publishes as it happens: the live (unstable) and stable weight streams, impedance
/// weight and body composition, records stored from a standard scale, decoding and device errors, link events.
///
/// Weights are kilograms; each sample carries the host arrival time and, from a standard scale's time stamp, the
/// device time.
///
/// Threading: a value type; share freely.
public enum ScaleEvent: Sendable {
    case unstableWeight(EventSample<Double>)
    case stableWeight(EventSample<Double>)
    case impedanceWeight(EventSample<Double>)
    case bodyComposition(EventSample<BodyComposition>)
    /// A timestamped measurement was written to the event store (before this event is sent).
    case stored(ScaleRecord, InsertOutcome)
    /// Bytes that did not decode, a device error code outside a command, a store failure.
    case error(ScaleError)
    case link(LinkEvent)
}

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

/// What a memory transfer reports, in order: `started`, then per record `record` (already stored) and
/// `progress`, then `finished`. Progress never goes down and ends at 1.0.
///
/// Threading: a value type; share freely.
public enum MemoryTransferEvent: Sendable, Hashable {
    /// The scale holds `count` records (0…200).
    case started(count: Int)
    /// Record `index` is in the event store (`outcome` says whether it was new).
    case record(index: Int, ScaleRecord, InsertOutcome)
    /// The fraction transferred, 0.0…1.0.
    case progress(Double)
    /// The link went down mid-transfer; the transfer resumes at record `resumingAt` when it is back.
    case interrupted(resumingAt: Int)
    /// The transfer is complete.
    case finished
}

/// The outcome of a memory transfer.
///
/// Threading: a value type; share freely.
public struct MemoryTransferSummary: Sendable, Hashable {
    /// Records the scale held.
    public var count: Int
    /// Records stored new, and records that were already stored.
    public var inserted: Int
    /// Records that were already stored.
    public var duplicates: Int
    /// Records stored with a different payload under an existing id (kept in the store's conflict log).
    public var conflicts: Int
    /// How often the transfer resumed after a link loss.
    public var resumptions: Int
}

/// A measurement's result.
///
/// Threading: a value type; share freely.
public struct ScaleMeasurement: Sendable, Hashable {
    /// The stable weight, kg.
    public var stableWeightKg: Double
    /// As the scale displays it in the requested unit.
    public var displayed: DisplayedWeight
    /// The unstable weights that came before it, kg.
    public var unstableWeightsKg: [Double]
    /// HS5: the weight by impedance, kg.
    public var impedanceWeightKg: Double?
    /// HS5 or a Body Composition service.
    public var bodyComposition: BodyComposition?
    /// A standard scale's time stamp, Unix seconds.
    public var time: Int?
}
