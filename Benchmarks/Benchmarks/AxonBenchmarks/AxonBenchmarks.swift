import Benchmark

/// The Axon benchmark suite: ring hand-off between threads, the pipeline end to end, and the DSP kernels.
///
/// The CI gate is `swift package benchmark thresholds check` on `mallocCountTotal` only (see `Thresholds/`):
/// the steady state of every hot path must allocate nothing. Wall-clock numbers are for local comparison.
let benchmarks: @Sendable () -> Void = {
    // Keeps the whole suite well under two minutes: each benchmark stops at 2 s or 1000 iterations.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 1_000
    )

    registerRingBenchmarks()
    registerPipelineBenchmarks()
    registerDSPBenchmarks()
}
