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

        @Flag(help: "Instead: the synthetic benchmark of per-window peak estimators behind the engine's (docs/eeg-engine.md) and what the engine's peak rules cost per hop.")
        var peakEstimators = false

        func validate() throws {
            guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
        }

        func run() throws {
            if peakEstimators { return try runPeakEstimators() }
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

        /// `--peak-estimators`: the estimator table (every standard case for the bias, a noisy subset for the
        /// spread) and the hop cost ratios, measured in this run.
        private func runPeakEstimators() throws {
            FileHandle.standardError.write(Data("axon bench: peak estimators on 1,520 synthetic spectra…\n".utf8))
            var noisy: [PeakEstimatorStudy.Case] = []
            for exponent in [1.0, 2.0] {
                for centre in [8.0, 10.0, 12.0] {
                    for width in [1.0, 2.0] {
                        noisy.append(.init(sampleRate: 250, windowSize: 256, exponent: exponent, centre: centre, width: width))
                    }
                }
            }
            for size in [256, 512] {
                let rows = try PeakEstimatorStudy.run(
                    cases: PeakEstimatorStudy.standardCases(windowSizes: [size]),
                    noisyCases: size == 256 ? noisy : [], windows: 200)
                print("\(size)-sample windows:")
                print(PeakEstimatorStudy.table(rows))
            }
            FileHandle.standardError.write(Data("axon bench: hop cost…\n".utf8))
            let workload = try BenchWorkload(channels: channels, sampleRate: rate)
            let cost = try PeakEstimatorStudy.hopCost(
                workload, timing: RepeatedTiming(budget: max(0.1, (quick ? 3 : seconds) / 75)))
            func ns(_ value: Double) -> String { String(format: "%.0f ns", value) }
            print("hop, \(channels) channels at \(rate) Hz: \(ns(cost.withoutBackground)) without the 1/f background fit, "
                + "\(ns(cost.withBackground)) with it (median of 25 side-by-side rounds' ratios: "
                + "\(String(format: "%.3f", cost.medianRatio)))")
            print("gathering the individual alpha frequency (\(channels) zero-padded windows): "
                + "\(ns(cost.alphaWindows)) per hop (\(String(format: "%.2f", cost.alphaWindows / cost.withBackground))× the hop)")
            if cost.irregularHops > 0 { print("warning: a hop did not make exactly one spectrum") }
        }
    }
}
