#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The host's clocks, as `Double` seconds.
///
/// Axon stamps every sample with the monotonic clock (it never jumps when NTP adjusts the wall clock); files and
/// user-facing times convert to Unix time with ``wallClockOffset()``.
///
/// Threading: all members are thread-safe and allocation-free.
public enum HostClock {
    /// Seconds on the monotonic clock (CLOCK_MONOTONIC). Precision ≈ 0.1 ns at a year of uptime.
    @inlinable
    public static func now() -> Double {
        var ts = timespec()
        // clock_gettime(CLOCK_MONOTONIC) cannot fail with a valid pointer on Linux.
        let rc = clock_gettime(CLOCK_MONOTONIC, &ts)
        precondition(rc == 0, "clock_gettime(CLOCK_MONOTONIC) failed")
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Unix time (seconds since 1970) from CLOCK_REALTIME.
    public static func unixNow() -> Double {
        var ts = timespec()
        let rc = clock_gettime(CLOCK_REALTIME, &ts)
        precondition(rc == 0, "clock_gettime(CLOCK_REALTIME) failed")
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Add this to a monotonic time to get Unix time, measured now (bracketing the realtime read by two
    /// monotonic reads to keep the error below a microsecond).
    public static func wallClockOffset() -> Double {
        let before = now()
        let unix = unixNow()
        let after = now()
        return unix - (before + after) / 2
    }

    /// Sleeps until a monotonic time, for sources that pace themselves (simulators, real-time replay).
    public static func sleep(until deadline: Double) {
        guard deadline.isFinite else { return }
        var ts = timespec(tv_sec: Int(deadline.rounded(.down)), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        // A signal resumes the same absolute deadline; the one other failure, EINVAL, needs a time this guard and
        // the conversion above never make.
        _ = try? SystemCall.retryingReturnedError("clock_nanosleep") {
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
        }
    }
}
