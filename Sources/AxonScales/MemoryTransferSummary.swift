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
