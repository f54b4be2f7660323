// AxonBench — end-to-end latency: a sample entering the ring to the spectrum of its window leaving the engine.

import AxonEEG
import AxonStreams

/// Measures, hop after hop, the time from the write of a window's last sample into the pipeline's ring to the
/// moment that window's spectrum row is popped from the ``AxonEEG/EEGProcessor``'s spectra ring, the hand-off an
/// application reads from. Both instants are read on the calling thread with the monotonic clock; in between,
/// the frame crosses to the pipeline's consumer thread, goes through the timeline and the engine (copy, detrend,
/// taper, FFT, band peaks and powers per channel, baseline) and its spectrum crosses back through a second ring.
///
/// Each hop writes all frames but the window's last, waits until the consumer has taken them and `settle`
/// seconds more (a device's next sample is 1/rate away, so the consumer has gone idle, as it has in use), then
/// writes the last one and spins on the spectra ring. With the pipeline's default ``AxonStreams/IdleStrategy`` (16
/// yields, then asleep until the producer wakes it) this is the latency a live session has; with a polling consumer it
/// is the processing and hand-off cost alone.
///
/// Threading: the calling thread is the producer and the spectra consumer; the pipeline's thread runs the engine.
public final class LatencyMeasurement {
    /// The measured figures, in microseconds.
    public struct Result: Sendable, Hashable {
        /// Median latency.
        public var p50Microseconds: Double
        /// 99th percentile (nearest rank).
        public var p99Microseconds: Double
        /// Largest latency seen.
        public var maxMicroseconds: Double
        /// Hops measured.
        public var hops: Int
        /// Spectra whose window did not end at the sample just written (0 unless the engine skipped a hop).
        public var mismatchedSpectra: Int
    }

    let workload: BenchWorkload
    let signal: BenchSignal
    let rig: EngineRig
    var processor: EEGProcessor { rig.processor }
    var writer: FrameWriter { rig.writer }
    let settle: Double
    private let ringCapacity: Int
    private var sample = 0

    /// Builds the processor and a pipeline with the given consumer idle strategy and starts it.
    ///
    /// - Parameters:
    ///   - idle: how the pipeline's consumer waits (`IdleStrategy()` is what sessions use).
    ///   - settle: seconds to wait after the consumer has taken a hop's earlier frames.
    ///   - realTime: the consumer thread's real-time options (``AxonStreams/RealTimeOptions``).
    public init(
        _ workload: BenchWorkload, idle: IdleStrategy, settle: Double, realTime: RealTimeOptions = .off
    ) throws(BenchError) {
        self.workload = workload
        self.settle = settle
        signal = BenchSignal(workload)
        ringCapacity = SPSCRing<Double>.powerOfTwo(atLeast: max(4096, 2 * workload.windowSize))
        var configuration = StreamPipeline.Configuration(ringCapacity: ringCapacity, idle: idle)
        configuration.realTime = realTime
        rig = try EngineRig(workload, configuration: configuration)
    }

    deinit { stop() }

    /// One hop; returns the latency in seconds and whether the spectrum was the one of the sample written last.
    private func hop() -> (latency: Double, matched: Bool) {
        // Up to the window's last sample: the first window needs windowSize samples, later ones hop.
        let leading = (sample == 0 ? workload.windowSize : workload.hop) - 1
        for _ in 0..<leading {
            writer.write(signal.frame(sample))
            sample += 1
        }
        while writer.freeCapacity < ringCapacity {}
        HostClock.sleep(until: HostClock.now() + settle)
        let lastIndex = sample
        let start = HostClock.now()
        writer.write(signal.frame(sample), arrivalTime: start)
        sample += 1
        while !rig.popSpectrum() {}
        let latency = HostClock.now() - start
        let index = rig.row[processor.engine.spectrumLayout.lane(.sampleIndex)]
        return (latency, index == Double(lastIndex))
    }

    /// Measures hops until `budget` seconds have passed (at least `minimumHops`, at most `maximumHops`).
    public func run(budget: Double, minimumHops: Int = 20, maximumHops: Int = 100_000) -> Result {
        _ = hop()  // the first window, and the consumer's first-use costs
        var latencies: [Double] = []
        latencies.reserveCapacity(min(maximumHops, 1 << 16))
        var mismatched = 0
        let end = HostClock.now() + budget
        repeat {
            let (latency, matched) = hop()
            latencies.append(latency)
            if !matched { mismatched += 1 }
        } while latencies.count < minimumHops || (HostClock.now() < end && latencies.count < maximumHops)
        latencies.sort()
        func percentile(_ fraction: Double) -> Double {
            let rank = Int((fraction * Double(latencies.count)).rounded(.up)) - 1
            return latencies[min(max(rank, 0), latencies.count - 1)] * 1e6
        }
        return Result(
            p50Microseconds: percentile(0.5), p99Microseconds: percentile(0.99), maxMicroseconds: percentile(1),
            hops: latencies.count, mismatchedSpectra: mismatched)
    }

    /// Ends the stream and joins the consumer thread. Calling it again does nothing.
    public func stop() {
        rig.stop()
    }
}
