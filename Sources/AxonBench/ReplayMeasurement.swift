// AxonBench — recorded data replayed at full speed through the ring and the engine on its own thread.

import AxonEEG
import AxonStreams

/// Times a replay of `seconds` of the device's data through a ``AxonStreams/StreamPipeline`` (ring → timeline → an
/// ``AxonEEG/EEGProcessor`` running the engine with its 60 s baseline and 10 s indicators) on the pipeline's consumer
/// thread, as `axon replay` runs a file at full speed.
///
/// The calling thread is the producer: it writes frames through the pipeline's `FrameWriter` into free ring
/// slots only (a file replay loses nothing), up to 256 frames per push as `axon replay` does, waits for room as
/// it does (``AxonStreams/FrameWriter/waitForRoom(atLeast:spins:timeout:)``), and, at the end, waits for the spectrum of the last full hop to come
/// out of the processor's spectra ring. The consumer thread is the one core doing the engine's work, so
/// device-seconds per wall-second (`seconds` ÷ wall time) is what one core serves; the producer runs on another.
///
/// Threading: `timeReplays`, `allocationsPerHop` and `stop` on one thread; the pipeline's consumer thread runs the
/// engine.
public final class ReplayMeasurement {
    /// The measured figures.
    public struct Result: Sendable, Hashable {
        /// Seconds of device data per replay.
        public var deviceSeconds: Int
        /// Median wall-clock milliseconds per replay.
        public var milliseconds: Double
        /// Device-seconds per wall-second: `deviceSeconds` ÷ the median replay time.
        public var deviceSecondsPerSecond: Double
        /// Heap allocations per hop (per second of data) during one more replay, both threads counted (`nil`
        /// when counting is off).
        public var allocationsPerHop: Double?
        /// Replays timed.
        public var repetitions: Int
    }

    let workload: BenchWorkload
    let signal: BenchSignal
    let rig: EngineRig
    var processor: EEGProcessor { rig.processor }
    var writer: FrameWriter { rig.writer }
    private var sample = 0
    private var spectraSeen = 0
    /// Frames per push at most: a replay's read-ahead.
    static let writeBatch = 256
    /// Free ring slots known to the producer (only the producer fills them, so the count can only be too low).
    private var free = 0

    /// Builds the processor and the pipeline and starts the consumer thread.
    public init(_ workload: BenchWorkload) throws(BenchError) {
        self.workload = workload
        signal = BenchSignal(workload)
        // As a file replay at full speed is configured (`RecordingReplaySource.pipelineConfiguration`): a ring of
        // 4096 frames handed to the stages in place 1024 at a time, virtual arrival times, so no clock estimator;
        // and a consumer that polls rather than parks, since the ring is never empty for long.
        rig = try EngineRig(workload, configuration: .init(
                ringCapacity: 4096, overflow: .rejectNewest, batchSize: 1024, timeline: .init(clock: nil),
                idle: IdleStrategy(spins: 1_000_000, park: 0)))
    }

    deinit { stop() }

    /// Writes `seconds` of frames and waits for the spectrum of the last full hop.
    public func replay(seconds: Int) {
        let rate = Double(workload.sampleRate)
        var remaining = seconds * workload.sampleRate
        while remaining > 0 {
            if free == 0 {
                // Look at the consumer's index only when the room seen last time is used up; while the ring is
                // full, wait until the consumer has emptied half of it, as `axon replay` does.
                free = writer.freeCapacity
                while free == 0 {
                    drainSpectra()
                    writer.waitForRoom(atLeast: writer.ringCapacity / 2)
                    free = writer.freeCapacity
                }
            }
            // As `axon replay` writes a file at full speed: as many frames as there is room for, in one push
            // (up to `writeBatch`, and not across the end of the signal's loop).
            let first = sample
            let count = min(remaining, free, Self.writeBatch, signal.frames - first % signal.frames)
            writer.write(
                frames: signal.rows(from: first, count: count), count: count, stride: workload.channels,
                deviceTime: { Double(first + $0) / rate }, counter: { _ in nil },
                arrivalTime: { Double(first + $0) / rate })
            sample += count
            free -= count
            remaining -= count
        }
        // Spectra end at samples windowSize − 1, + hop, …: after `sample` frames there are this many.
        let target = sample < workload.windowSize ? 0 : (sample - workload.windowSize) / workload.hop + 1
        var idle = IdleStrategy(spins: 16, park: 0.0002)
        while spectraSeen + processor.spectra.droppedCount < target {
            drainSpectra()
            idle.idle()
        }
    }

    private func drainSpectra() {
        while rig.popSpectrum() { spectraSeen += 1 }
    }

    /// Times replays of `seconds` within `timing`'s budget after one untimed replay (of at most 60 s): wall seconds
    /// per replay. Call it in rounds between other measurements to spread a slow spell over them all.
    public func timeReplays(seconds: Int, timing: RepeatedTiming) -> [Double] {
        replay(seconds: min(seconds, 60))
        var times: [Double] = []
        let end = HostClock.now() + timing.budget
        repeat {
            let start = HostClock.now()
            replay(seconds: seconds)
            times.append(HostClock.now() - start)
        } while times.count < timing.minimumRepetitions || (HostClock.now() < end && times.count < 1000)
        return times
    }

    /// Heap allocations per hop (per second of data) during one replay of `seconds`, both threads counted
    /// (`nil` when counting is off).
    public func allocationsPerHop(seconds: Int) -> Double? {
        AllocationCounter.perUnit(seconds) { replay(seconds: seconds) }
    }

    /// The result of the replays timed in every round (`times`, wall seconds each): their median.
    public static func result(seconds: Int, times: [Double], allocationsPerHop: Double?) -> Result {
        let median = RepeatedTiming.median(times)
        return Result(
            deviceSeconds: seconds, milliseconds: median * 1e3, deviceSecondsPerSecond: Double(seconds) / median,
            allocationsPerHop: allocationsPerHop, repetitions: times.count)
    }

    /// Ends the stream and joins the consumer thread. Calling it again does nothing.
    public func stop() {
        rig.stop()
    }
}
