import CLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a consumer thread waits when its ring is empty.
///
/// It yields the core for `spins` rounds (a frame is usually a few microseconds away under load), then, waiting on
/// a wakeable ring (``idle(waitingOn:)``), blocks until the producer publishes (``SPSCRing/waitForData(timeout:)``:
/// the producer writes an `eventfd` only when the consumer sleeps, so a device thread pays nothing while the
/// consumer is awake) or `blockTimeout` passes; otherwise it parks for `park` seconds per round. A stream at
/// 250 Hz thus costs a consumer a wake-up per frame and microseconds of latency, and an idle stream no CPU.
/// `yields: false` makes it poll (``polling``): it never enters the kernel and only tells the CPU it is spinning, for
/// a core pinned to one stream: the lowest latency at the price of the core.
///
/// Threading contract: a value owned by one consumer thread.
public struct IdleStrategy: Sendable, Hashable {
    /// Rounds of `sched_yield` before parking.
    public var spins: Int
    /// Seconds parked per round after the spins, when the ring cannot wake the consumer; 0 polls for ever.
    public var park: Double
    /// The longest a blocked consumer sleeps before it looks again (statistics, stop requests), seconds.
    public var blockTimeout: Double
    /// Block on a wakeable ring after the spins; `false` parks instead (the naps every version before wake-ups
    /// used: latency up to `park` after a quiet spell).
    public var blocks: Bool
    /// `false` busy-waits: every round is one spin-wait hint to the CPU (x86 `pause`) instead of a `sched_yield`
    /// system call, and `spins`, `park` and `blocks` do not apply. A `sched_yield` enters the kernel, which may run
    /// its own pending work before it returns, while a frame waits. Only for a consumer with a core of its own: it
    /// never lets another thread of that core run.
    public var yields: Bool
    private var idleRounds = 0

    /// Creates a strategy.
    public init(
        spins: Int = 16, park: Double = 0.0005, blockTimeout: Double = 0.05, blocks: Bool = true, yields: Bool = true
    ) {
        precondition(spins >= 0 && park >= 0 && blockTimeout > 0)
        self.spins = spins
        self.park = park
        self.blockTimeout = blockTimeout
        self.blocks = blocks
        self.yields = yields
    }

    /// 64 yields, then 0.5 ms naps, never blocking: how consumers waited before wake-ups (for comparisons).
    public static let napping = IdleStrategy(spins: 64, park: 0.0005, blocks: false)

    /// Busy-waits and never enters the kernel: the lowest latency, one core busy per stream.
    public static let polling = IdleStrategy(spins: 0, park: 0, yields: false)

    /// Called when a poll found nothing: yields or parks (or, not yielding, spins once).
    public mutating func idle() {
        guard yields else { return axon_spin_hint() }
        idleRounds += 1
        if idleRounds <= spins || park == 0 {
            sched_yield()
            return
        }
        nap()
    }

    /// Called when a poll of `ring` found nothing: yields, then blocks until the producer publishes (a wakeable
    /// ring) or parks.
    public mutating func idle<Element>(waitingOn ring: SPSCRing<Element>) {
        guard yields else { return axon_spin_hint() }
        idleRounds += 1
        if idleRounds <= spins || park == 0 {
            sched_yield()
            return
        }
        if blocks, ring.isWakeable {
            ring.waitForData(timeout: blockTimeout)
        } else {
            nap()
        }
    }

    private func nap() {
        var request = timespec(tv_sec: 0, tv_nsec: Int(park * 1e9))
        // EINTR only shortens one park; the caller polls again either way.
        _ = nanosleep(&request, nil)
    }

    /// Called when a poll found work.
    public mutating func reset() { idleRounds = 0 }
}
