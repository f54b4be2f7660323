import AxonStreams
import Synchronization

/// A thread that calls `body` at a fixed rate with the tick number (0, 1, 2, … counted on the clock from the start).
///
/// A tick delayed by a slow call runs late rather than not at all, so a dongle that is slow now and then loses no
/// sample; once the poller is more than ``maximumLag`` seconds behind (a hung dongle, a long outage) the missed
/// ticks are skipped, and their numbers with them — the stream shows them as a gap — instead of a burst of catch-up
/// requests.
///
/// Threading contract: created and stopped from any thread, once each; `body` runs on the poller's own thread.
final class OBDPoller: Sendable {
    /// Seconds behind the schedule beyond which ticks are skipped rather than run late.
    static let maximumLag = 1.0

    private final class StopFlag: Sendable {
        let requested = Atomic<Bool>(false)
    }

    private let flag = StopFlag()
    private let thread: ThreadLocked<WorkerThread?>

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
                    tick += 1
                    // Too far behind: skip to the tick that is due now.
                    let behind = HostClock.now() - (start + Double(tick) * period)
                    if behind > OBDPoller.maximumLag { tick += UInt64((behind / period).rounded(.down)) }
                }
            }
        } catch {
            throw .pipeline(error)
        }
        thread = ThreadLocked(worker)
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
