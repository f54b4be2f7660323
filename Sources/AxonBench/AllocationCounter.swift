// AxonBench — the process's heap allocation count, read around measured regions.

import CAllocationCounter

/// Counts the process's heap allocations (`malloc`, `calloc`, `realloc`, `posix_memalign`, `aligned_alloc`,
/// `memalign`) through a C interposer linked into the programs that use this module.
///
/// The count is process-wide: a measurement that runs a pipeline counts its producer and consumer threads
/// alike, which is what "the steady state allocates nothing" means. Read it before and after a region and
/// subtract.
///
/// Threading: thread-safe; each read is one relaxed atomic load, allocation-free.
///
///     let before = AllocationCounter.count
///     runHops(1000)
///     let perHop = Double(AllocationCounter.count - before) / 1000
public enum AllocationCounter {
    /// Allocations made by the process since it started (0 when ``isEnabled`` is `false`).
    public static var count: UInt64 { axon_allocation_count() }

    /// Allocations made by the calling thread since it started (0 when ``isEnabled`` is `false`): a region that
    /// runs on one thread can be checked exactly while other threads allocate.
    public static var threadCount: UInt64 { axon_thread_allocation_count() }

    /// Whether allocations are counted: `false` in sanitizer builds, whose runtimes own the allocator.
    public static var isEnabled: Bool { axon_allocation_counting_enabled() != 0 }

    /// Allocations per unit of work while `body` runs, or `nil` when counting is off.
    ///
    /// - Parameters:
    ///   - units: units of work `body` does (hops, batches); at least 1.
    ///   - body: the region; it must not allocate on purpose outside the work it measures.
    public static func perUnit(_ units: Int, _ body: () -> Void) -> Double? {
        precondition(units >= 1)
        guard isEnabled else {
            body()
            return nil
        }
        let before = count
        body()
        return Double(count &- before) / Double(units)
    }
}
