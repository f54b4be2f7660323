import ArgumentParser
import AxonBench
import Foundation

extension Axon {
    /// Measures the core on this machine (FFT, engine hop, replay, ring, latency, allocations) and prints a table
    /// or one JSON object.
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure the DSP core on this machine: FFT per window, one engine hop, a one-hour replay "
                + "through ring and engine, ring throughput, ring-to-spectrum latency (p50/p99/max), steady-state "
                + "allocations, and how many devices one core serves.")

        @Option(help: "Channels of the simulated device. (--channels names channels, as elsewhere)")
        var channelCount: Int = 4

        @Option(name: .customLong("channels"), help: ArgumentHelp("Deprecated: --channel-count.", visibility: .hidden))
        var deprecatedChannels: Int?

        /// `--channel-count`, or the old `--channels N`.
        var channels: Int { deprecatedChannels ?? channelCount }

        @Option(help: "Sample rate of the simulated device, Hz (the window is the power of two ≥ one second).")
        var rate: Int = 250

        @Option(help: "Seconds of timed repetitions, shared among the measurements (set-up comes on top).")
        var seconds: Double = 30

        @Flag(help: "A quick look: a 3 s budget, 10-minute replays and 200 latency hops instead of 2000 (noisier figures).")
        var quick = false

        @Flag(help: "Print one JSON object instead of the table.")
        var json = false

        func validate() throws {
            guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
        }

        func run() throws {
            Deprecation.announce(
                "--channels N", given: deprecatedChannels != nil, use: "--channel-count N", command: "bench")
            let workload = try BenchWorkload(channels: channels, sampleRate: rate)
            let options = BenchOptions(
                workload: workload, seconds: quick ? 3 : seconds, replaySeconds: quick ? 600 : 3600,
                minimumLatencyHops: quick ? 200 : 2000)
            let report = try AxonBench.Bench.run(options) { step in
                FileHandle.standardError.write(Data("axon bench: \(step)…\n".utf8))
            }
            print(json ? try report.json() : report.table())
        }
    }
}
