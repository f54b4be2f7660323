import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// Real-time settings for a pipeline's consumer thread, for machines where the stream must not wait on the
/// scheduler: CPU affinity, `SCHED_FIFO` priority and locked memory. All off by default; each is applied when the
/// consumer thread starts, and each one the system refuses (no privilege, no such CPU) is reported in
/// ``StreamPipeline/realTimeRefusals`` while the pipeline runs on without it.
///
/// Pinning the consumer to the CPU its producer runs on turns a wake-up into a same-core switch (microseconds)
/// instead of an inter-processor interrupt to an idle core, which on a virtual machine costs tens of
/// microseconds; pinning it away from everything else gives the engine a core of its own.
///
/// Threading: a plain value, `Sendable`.
public struct RealTimeOptions: Sendable, Hashable {
    /// CPUs the consumer thread may run on (`sched_setaffinity`); `nil` leaves it to the scheduler.
    public var cpus: [Int]?
    /// `SCHED_FIFO` priority (1…99) for the consumer thread; `nil` keeps the normal scheduler. Needs
    /// `CAP_SYS_NICE` or an `RLIMIT_RTPRIO` that allows it.
    public var fifoPriority: Int?
    /// Lock the process's memory (`mlockall(MCL_CURRENT | MCL_FUTURE)`) so the real-time path never waits on a page
    /// fault. Needs `CAP_IPC_LOCK` or a large enough `RLIMIT_MEMLOCK`.
    public var lockMemory: Bool

    /// Creates options; every one off by default.
    public init(cpus: [Int]? = nil, fifoPriority: Int? = nil, lockMemory: Bool = false) {
        self.cpus = cpus
        self.fifoPriority = fifoPriority
        self.lockMemory = lockMemory
    }

    /// Nothing changed: the scheduler's defaults.
    public static let off = RealTimeOptions()

    /// The calling thread's CPU set now, as options that put it back (`cpus` nil when the kernel does not say).
    public static func currentThreadCPUs() -> RealTimeOptions {
        var cpus = [Int32](repeating: 0, count: 1024)
        let count = axon_thread_cpus(&cpus, Int32(cpus.count))
        return RealTimeOptions(cpus: count > 0 ? cpus.prefix(Int(count)).map(Int.init) : nil)
    }

    /// Applies the options to the calling thread (a pipeline does it on its consumer thread; a device thread of
    /// the caller's may do it for itself) and returns one message per option the system refused.
    public func applyToCurrentThread() -> [String] {
        var refusals: [String] = []
        if let cpus {
            let list = cpus.map { Int32(clamping: $0) }
            let rc = list.withUnsafeBufferPointer { axon_set_thread_cpus(0, $0.baseAddress, Int32($0.count)) }
            if cpus.isEmpty || rc != 0 {
                refusals.append("CPU affinity \(cpus): \(cpus.isEmpty ? "no CPU given" : Self.describe(rc))")
            }
        }
        if let fifoPriority {
            var parameters = sched_param()
            parameters.sched_priority = Int32(clamping: fifoPriority)
            let rc = (1...99).contains(fifoPriority)
                ? pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &parameters) : EINVAL
            if rc != 0 { refusals.append("SCHED_FIFO priority \(fifoPriority): \(Self.describe(rc))") }
        }
        if lockMemory, mlockall(Int32(MCL_CURRENT | MCL_FUTURE)) != 0 {
            refusals.append("mlockall: \(Self.describe(errno))")
        }
        return refusals
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)) + " (errno \(code))"
    }
}
