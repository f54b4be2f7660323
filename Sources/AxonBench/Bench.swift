// AxonBench — runs every measurement of `axon bench` in turn and assembles the report.

import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// The core measurements of Axon on the machine it runs on: FFT, engine hop, replay through ring and engine,
/// ring throughput, end-to-end latency and steady-state allocations, for one simulated device.
///
/// Measurements run one after the other, each within its share of ``BenchOptions/seconds`` (the engine hops and the
/// replay, whose ratio is reported, alternate in rounds); the machine should
/// otherwise be idle (two threads are busy at a time for the ring, replay and latency measurements).
///
///     let report = try Bench.run(BenchOptions(workload: try BenchWorkload(channels: 4, sampleRate: 250)))
///     print(report.table())
///
/// Threading: call from one thread; it starts and joins its own threads.
public enum Bench {
    /// Shares of the time budget per measurement.
    static let shares = (
        fft: 0.05, hop: 0.10, spectralHop: 0.06, replay: 0.23, ringSingle: 0.08, ringBatch: 0.08, latency: 0.15,
        pinned: 0.08, napping: 0.05, polling: 0.10
    )
    /// Rounds the engine-alone and through-ring measurements alternate in.
    static let pairedRounds = 5
    /// Frames per batch in the batched ring measurement.
    public static let ringBatch = 256

    /// Runs every measurement and returns the report; `progress` gets one line before each measurement.
    ///
    /// - Throws: ``BenchError`` if a plan, the engine or a thread cannot be set up.
    public static func run(_ options: BenchOptions, progress: (String) -> Void = { _ in }) throws(BenchError)
        -> BenchReport
    {
        let started = HostClock.now()
        let workload = options.workload
        let budget = options.seconds
        func timing(_ share: Double, minimum: Int = 5) -> RepeatedTiming {
            RepeatedTiming(budget: budget * share, minimumRepetitions: minimum)
        }

        progress("FFT of a \(workload.windowSize)-point window")
        let fft = try FFTMeasurement.run(workload, timing: timing(shares.fft))

        // The engine alone and the replay through ring and engine are compared (`ringEngineOverEngine`), so they
        // alternate in rounds and each figure is the median of all its rounds' repetitions: a slow spell of a shared
        // machine (seen lasting 0.2–0.6 s, the engine then 1.7× slower) falls on both alike instead of on one.
        progress("engine hop (\(workload.channels) channels at \(workload.sampleRate) Hz), the same with signal quality off, "
            + "and a replay of \(options.replaySeconds) s through ring and engine, in \(pairedRounds) alternating rounds")
        let hopMeasurement = try HopMeasurement(workload)
        let spectralMeasurement = try HopMeasurement(workload, measuresSignalQuality: false)
        var hopTimes: [Double] = [], spectralTimes: [Double] = [], replayTimes: [Double] = []
        var replayAllocations: Double?
        for round in 0..<pairedRounds {
            hopTimes += hopMeasurement.timeHops(timing(shares.hop / Double(pairedRounds), minimum: 1))
            spectralTimes += spectralMeasurement.timeHops(timing(shares.spectralHop / Double(pairedRounds), minimum: 1))
            // A pipeline of its own each round: between rounds no consumer thread spins beside the engine alone.
            let replayer = try ReplayMeasurement(workload)
            replayTimes += replayer.timeReplays(
                seconds: options.replaySeconds, timing: timing(shares.replay / Double(pairedRounds), minimum: 1))
            if round == pairedRounds - 1 { replayAllocations = replayer.allocationsPerHop(seconds: options.replaySeconds) }
            replayer.stop()
        }
        let hop = hopMeasurement.result(nanosecondsPerHop: hopTimes)
        let spectralHop = spectralMeasurement.result(nanosecondsPerHop: spectralTimes)
        let replay = ReplayMeasurement.result(
            seconds: options.replaySeconds, times: replayTimes, allocationsPerHop: replayAllocations)

        progress("ring, one frame per push")
        let singleRing = try RingMeasurement(workload, batch: 1)
        let single = singleRing.run(timing: timing(shares.ringSingle))
        singleRing.stop()

        progress("ring, \(ringBatch) frames per push")
        let batchRing = try RingMeasurement(workload, batch: ringBatch)
        let batched = batchRing.run(timing: timing(shares.ringBatch))
        batchRing.stop()

        progress("latency, ring entry to spectrum out (session idle strategy: the consumer blocks, the producer wakes it)")
        let blocking = try LatencyMeasurement(workload, idle: IdleStrategy(), settle: 0.001)
        let latency = blocking.run(budget: budget * shares.latency, minimumHops: options.minimumLatencyHops)
        blocking.stop()

        progress("latency, the same with producer and consumer pinned to one CPU (a wake-up without an interrupt to another core)")
        let pinned = try pinnedLatency(workload, budget: budget * shares.pinned)

        progress("latency, consumer napping 0.5 ms at a time (the strategy before wake-ups)")
        let napping = try LatencyMeasurement(workload, idle: .napping, settle: 0.001)
        let nappingLatency = napping.run(budget: budget * shares.napping)
        napping.stop()

        progress("latency, polling consumer")
        let polling = try LatencyMeasurement(workload, idle: .polling, settle: 0.0001)
        let pollingLatency = polling.run(budget: budget * shares.polling)
        polling.stop()

        progress("consumer thread CPU, one device in real time")
        let consumerCPU = try ConsumerCPUMeasurement.run(workload, seconds: max(2, min(4, budget * 0.1)))

        let engineRate: Double = 1e9 / hop.nanoseconds
        let keptOfEngine: Double = replay.deviceSecondsPerSecond * hop.nanoseconds / 1e9
        let unmatched: Int = latency.mismatchedSpectra + nappingLatency.mismatchedSpectra + pollingLatency.mismatchedSpectra
        return BenchReport(
            channels: workload.channels, sampleRate: workload.sampleRate, windowSize: workload.windowSize,
            hop: workload.hop,
            fftSize: fft.size, fftNanoseconds: fft.nanoseconds, allocationsPerFFT: fft.allocations,
            hopNanoseconds: hop.nanoseconds, engineDeviceSecondsPerSecond: engineRate,
            allocationsPerHop: hop.allocations, tenthHopDominantFrequencies: hop.tenthHopDominantFrequencies,
            spectralHopNanoseconds: spectralHop.nanoseconds, allocationsPerSpectralHop: spectralHop.allocations,
            replayDeviceSeconds: replay.deviceSeconds, replayMilliseconds: replay.milliseconds,
            deviceSecondsPerSecond: replay.deviceSecondsPerSecond, devicesPerCore: replay.deviceSecondsPerSecond,
            ringEngineOverEngine: keptOfEngine,
            allocationsPerReplayHop: replay.allocationsPerHop,
            ringItemsPerSecond: batched.itemsPerSecond, ringBatch: ringBatch,
            ringSingleItemsPerSecond: single.itemsPerSecond, allocationsPerRingBatch: batched.allocationsPerBatch,
            allocationsPerRingItem: single.allocationsPerBatch,
            latencyP50Microseconds: latency.p50Microseconds, latencyP99Microseconds: latency.p99Microseconds,
            latencyMaxMicroseconds: latency.maxMicroseconds, latencyHops: latency.hops,
            pinnedLatencyP50Microseconds: pinned?.p50Microseconds, pinnedLatencyP99Microseconds: pinned?.p99Microseconds,
            pinnedLatencyMaxMicroseconds: pinned?.maxMicroseconds,
            nappingLatencyP99Microseconds: nappingLatency.p99Microseconds,
            nappingLatencyMaxMicroseconds: nappingLatency.maxMicroseconds,
            pollingLatencyP50Microseconds: pollingLatency.p50Microseconds,
            pollingLatencyP99Microseconds: pollingLatency.p99Microseconds,
            pollingLatencyMaxMicroseconds: pollingLatency.maxMicroseconds,
            latencyUnmatchedSpectra: unmatched,
            consumerCPUPercent: consumerCPU,
            allocationCounting: AllocationCounter.isEnabled, elapsedSeconds: HostClock.now() - started)
    }

    /// The session default's latency with the calling thread (the producer) and the consumer pinned to the last
    /// online CPU, the caller's own CPU set restored afterwards; `nil` when the system refuses.
    static func pinnedLatency(_ workload: BenchWorkload, budget: Double) throws(BenchError) -> LatencyMeasurement.Result? {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let cpu = online - 1
        let previous = RealTimeOptions.currentThreadCPUs()
        guard RealTimeOptions(cpus: [cpu]).applyToCurrentThread().isEmpty else { return nil }
        defer { _ = previous.applyToCurrentThread() }
        let measurement = try LatencyMeasurement(
            workload, idle: IdleStrategy(), settle: 0.001, realTime: RealTimeOptions(cpus: [cpu]))
        defer { measurement.stop() }
        guard measurement.rig.pipeline.realTimeRefusals.isEmpty else { return nil }
        return measurement.run(budget: budget)
    }
}
