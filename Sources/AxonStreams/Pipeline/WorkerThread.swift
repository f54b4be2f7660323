import CLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread that can be joined: the pipeline's source and consumer threads.
///
/// Foundation's `Thread` cannot be joined; a pipeline's clean shutdown needs to wait for its threads to end.
///
/// Threading contract: created and joined by one controlling thread.
///
///     let worker = try WorkerThread(name: "consumer") { drainRing() }
///     …
///     worker.join()
public final class WorkerThread {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    private var handle: pthread_t?

    /// Starts `body` on a new thread; `name` identifies it in errors and, cut to 15 bytes, to the system
    /// (`/proc/self/task/*/comm`, `top -H`).
    public init(name: String, body: @escaping @Sendable () -> Void) throws(PipelineError) {
        let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            // A name the system refuses only loses the label: the result is not needed.
            _ = axon_name_current_thread(body.name)
            body.run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw .threadStartFailed(name: name, errno: rc)
        }
        handle = thread
    }

    /// Waits for the thread to end. Calling it again does nothing.
    public func join() {
        guard let thread = handle else { return }
        handle = nil
        let rc = pthread_join(thread, nil)
        precondition(rc == 0, "pthread_join failed with \(rc)")
    }
}
