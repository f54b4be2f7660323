import Benchmark
import Foundation

/// The Axon benchmark suite: ring hand-off between threads, the pipeline end to end, the DSP kernels, the EEG
/// engine and its ring-to-spectrum latency, artifact subspace reconstruction, the Brainiac notification decoder and
/// encoder, and the EDF+/BDF+ writers.
///
/// The CI gate is `swift package benchmark thresholds check` on `mallocCountTotal` only (see `Thresholds/`):
/// the steady state of every hot path must allocate nothing. Wall-clock numbers are for local comparison.
///
///     cd Benchmarks
///     swift package benchmark                                   # everything, ~25 s after the first build
///     swift package benchmark --filter 'Ring\..*'               # regexes over the dotted names
///     swift package benchmark --scale                           # raw per-iteration values instead of per item
///     swift package benchmark thresholds check                  # the malloc gate (`make bench-check`)
///
/// After adding a benchmark: `swift package --allow-writing-to-package-directory benchmark thresholds update
/// --filter '<name>'`, then cut its JSON down to `mallocCountTotal`. The static check compares the p90 of the
/// per-iteration counts, so an allocation in fewer than one iteration in ten would pass it; run with `--scale`
/// and read the Malloc row's p100 when in doubt.
let benchmarks: @Sendable () -> Void = {
    // Keeps the whole suite well under two minutes: each benchmark stops at 2 s or 1000 iterations.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        maxDuration: RunLimits.duration(.seconds(2)),
        maxIterations: RunLimits.iterations(1_000)
    )

    registerRingBenchmarks()
    registerPipelineBenchmarks()
    registerDSPBenchmarks()
    registerBrainiacBenchmarks()
    registerEEGBenchmarks()
    registerASRBenchmarks()
    registerLatencyBenchmarks()
    registerRecordBenchmarks()
}

/// How long each benchmark runs. `make bench-check` sets `AXON_BENCH_GATE=1`: the malloc gate reads only allocation
/// counts, which do not need the timing runs' statistics, so there each benchmark stops at 0.2 s or 50 iterations
/// (after the same warm-up) instead of its own limits: the whole suite's runs take about 10 s instead of about 25.
enum RunLimits {
    static let gate = ProcessInfo.processInfo.environment["AXON_BENCH_GATE"] == "1"

    static func duration(_ timing: Duration) -> Duration { gate ? .milliseconds(200) : timing }

    static func iterations(_ timing: Int) -> Int { gate ? min(timing, 50) : timing }
}
