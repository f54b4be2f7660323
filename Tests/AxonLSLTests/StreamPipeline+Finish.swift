import AxonStreams
import StreamTestSupport
import Testing

extension StreamPipeline {
    /// Waits until `frames` frames were delivered or `timeout` seconds passed, then stops the pipeline (so a peer
    /// that sent too little fails the test's counts instead of hanging it).
    func finish(afterDelivering frames: Int, timeout: Double) {
        _ = waitUntil(seconds: timeout, interval: 0.05, onTimeout: .returnFalse) { statistics().delivered >= frames }
        stop()
    }
}
