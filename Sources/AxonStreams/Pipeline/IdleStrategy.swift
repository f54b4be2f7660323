#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a consumer thread waits when its ring is empty, without a lock or a system wake-up from the producer.
///
/// It yields the core for `spins` rounds (a frame is usually a few microseconds away under load), then parks
/// for `park` seconds per round. The park bounds the extra push-to-sink latency of a quiet stream at `park`;
/// at 250 Hz a frame comes every 4 ms, so the default 0.5 ms costs nothing and keeps an idle stream's CPU use
/// near zero. The producer never pays for a wake-up, which keeps device threads real-time.
///
/// Threading contract: a value owned by one consumer thread.
public struct IdleStrategy: Sendable, Hashable {
    /// Rounds of `sched_yield` before parking.
    public var spins: Int
    /// Seconds parked per round after the spins.
    public var park: Double
    private var idleRounds = 0

    /// Creates a strategy.
    public init(spins: Int = 64, park: Double = 0.0005) {
        precondition(spins >= 0 && park >= 0)
        self.spins = spins
        self.park = park
    }

    /// Called when a poll found nothing: yields or parks.
    public mutating func idle() {
        idleRounds += 1
        if idleRounds <= spins || park == 0 {
            sched_yield()
            return
        }
        var request = timespec(tv_sec: 0, tv_nsec: Int(park * 1e9))
        // EINTR only shortens one park; the caller polls again either way.
        _ = nanosleep(&request, nil)
    }

    /// Called when a poll found work.
    public mutating func reset() { idleRounds = 0 }
}
