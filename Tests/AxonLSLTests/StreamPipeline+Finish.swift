import AxonStreams

extension StreamPipeline {
    /// Waits until `frames` frames were delivered or `timeout` seconds passed, then stops the pipeline (so a peer
    /// that sent too little fails the test's counts instead of hanging it).
    func finish(afterDelivering frames: Int, timeout: Double) {
        let deadline = HostClock.now() + timeout
        while statistics().delivered < frames, HostClock.now() < deadline {
            HostClock.sleep(until: HostClock.now() + 0.05)
        }
        stop()
    }
}
