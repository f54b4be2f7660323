#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread that can be joined, for the consumer side of the ring benchmarks.
///
/// Foundation's `Thread` cannot be joined, and a benchmark's teardown must wait for its consumer before the ring
/// goes away. Threading contract: created and joined by the benchmark thread.
final class JoinableThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private var handle: pthread_t?

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, context)
        precondition(rc == 0, "pthread_create failed with \(rc)")
        handle = thread
    }

    /// Waits for the thread to end; later calls do nothing.
    func join() {
        guard let thread = handle else { return }
        handle = nil
        let rc = pthread_join(thread, nil)
        precondition(rc == 0, "pthread_join failed with \(rc)")
    }
}
