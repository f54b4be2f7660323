import AxonDevices
import AxonEventStore
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
