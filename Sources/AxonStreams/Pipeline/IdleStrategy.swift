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
/// `park: 0` makes it poll (``polling``): for a core pinned to one stream, the lowest latency at the price of the
/// core.
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
    private var idleRounds = 0

    /// Creates a strategy.
    public init(spins: Int = 16, park: Double = 0.0005, blockTimeout: Double = 0.05, blocks: Bool = true) {
        precondition(spins >= 0 && park >= 0 && blockTimeout > 0)
        self.spins = spins
        self.park = park
        self.blockTimeout = blockTimeout
        self.blocks = blocks
    }

    /// 64 yields, then 0.5 ms naps, never blocking: how consumers waited before wake-ups (for comparisons).
    public static let napping = IdleStrategy(spins: 64, park: 0.0005, blocks: false)

    /// Spins and never sleeps: the lowest latency, one core busy per stream.
    public static let polling = IdleStrategy(spins: 0, park: 0)

    /// Called when a poll found nothing: yields or parks.
    public mutating func idle() {
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
