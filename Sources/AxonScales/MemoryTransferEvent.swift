import AxonEventStore
import AxonRecording

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
