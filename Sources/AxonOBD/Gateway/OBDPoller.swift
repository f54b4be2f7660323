import AxonStreams
import Synchronization

/// A thread that calls `body` at a fixed rate with the tick number (0, 1, 2, … counted on the clock from the start,
/// so a slow call or an outage skips numbers instead of shifting the schedule).
///
/// Threading contract: created and stopped from any thread, once each; `body` runs on the poller's own thread.
final class OBDPoller: Sendable {
    private final class StopFlag: Sendable {
        let requested = Atomic<Bool>(false)
    }

    private let flag = StopFlag()
    private let thread: Mutex<WorkerThread?>

    /// Starts polling `body` at `rate` Hz.
    init(name: String, rate: Double, body: @escaping @Sendable (UInt64) -> Void) throws(OBDGatewayError) {
        let period = 1 / rate
        let flag = self.flag
        let worker: WorkerThread
        do {
            worker = try WorkerThread(name: name) {
                let start = HostClock.now()
                var tick: UInt64 = 0
                while !flag.requested.load(ordering: .acquiring) {
                    HostClock.sleep(until: start + Double(tick) * period)
                    if flag.requested.load(ordering: .acquiring) { break }
                    body(tick)
                    // The next tick on the schedule that is still ahead; the ones missed are skipped.
                    let due = UInt64(max(0, (HostClock.now() - start) / period).rounded(.down)) + 1
                    tick = max(tick + 1, due)
                }
            }
        } catch {
            throw .pipeline("\(error)")
        }
        thread = Mutex(worker)
    }

    /// Asks the thread to stop and waits until it has (at most one period plus the call in progress).
    func stop() {
        flag.requested.store(true, ordering: .releasing)
        let worker = thread.withLock { state -> WorkerThread? in
            defer { state = nil }
            return state
        }
        worker?.join()
    }
}
