import AxonStreams

/// A sink that keeps every frame's values, device time, arrival and timestamp, and every gap, for assertions.
final class CollectingSink: SampleSink, @unchecked Sendable {
    // Sendable invariant: written on the pipeline's consumer thread, read after the pipeline has finished.
    let name = "collect"
    var values: [[Double]] = []
    var deviceTimes: [Double] = []
    var arrivals: [Double] = []
    var timestamps: [Double] = []
    var gaps: [(beforeFrame: Int, gap: GapRecord)] = []

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        for gap in block.gaps { gaps.append((values.count + gap.beforeFrame, gap.gap)) }
        for frame in 0..<block.frameCount {
            values.append(Array(block.values(ofFrame: frame)))
            deviceTimes.append(block.deviceTime(ofFrame: frame) ?? .nan)
            arrivals.append(block.arrivalTime(ofFrame: frame))
            timestamps.append(block.timestamp(ofFrame: frame))
        }
    }

    func close() throws {}
}

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
