import ArgumentParser
import AxonStreams
import Foundation

extension Axon {
    /// Runs the stream framework on a simulated headset and prints what flowed, live.
    struct StreamDemo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream",
            abstract: "Stream a simulated 4-channel 250 Hz headset through the pipeline and print live statistics.")

        @Option(help: "Seconds to run.")
        var seconds: Double = 5

        @Option(help: "Samples per second.")
        var rate: Double = 250

        @Option(help: "Number of channels. (--channels names channels, as elsewhere)")
        var channelCount: Int = 4

        @Option(name: .customLong("channels"), help: ArgumentHelp("Deprecated: --channel-count.", visibility: .hidden))
        var deprecatedChannels: Int?

        /// `--channel-count`, or the old `--channels N`.
        var channels: Int { deprecatedChannels ?? channelCount }

        @Option(help: "Lose this many consecutive samples every 2 s, to show gap records (0 = none).")
        var loss: Int = 3

        @Option(parsing: .unconditional, help: "Device clock error in ppm (negative: slow), to show the clock estimator at work.")
        var driftPPM: Double = 100

        func validate() throws {
            guard seconds > 0, rate > 0, (1...256).contains(channels), loss >= 0 else {
                throw ValidationError("seconds and rate must be > 0, channels 1…256, loss ≥ 0")
            }
        }

        func run() throws {
            Deprecation.announce(
                "--channels N", given: deprecatedChannels != nil, use: "--channel-count N", command: "stream")
            let labels = channels == 4 ? ["T3", "O1", "T4", "O2"] : (0..<channels).map { "ch\($0 + 1)" }
            let everyTwoSeconds = Int(2 * rate)
            let lost = loss == 0 ? [] : Set(stride(from: everyTwoSeconds, to: Int(seconds * rate), by: everyTwoSeconds)
                .flatMap { $0..<($0 + loss) })
            let source = SimulatedSource(configuration: .init(
                rate: rate, channelLabels: labels, duration: seconds, samplesPerPacket: 5, lostSamples: lost,
                clockDriftPPM: driftPPM, arrivalJitter: 0.003))
            let summary = SummarySink()
            let pipeline = StreamPipeline(source: source, sinks: [summary])

            print("axon stream: simulated \(channels)-channel \(fmt(rate, 0)) Hz headset for \(fmt(seconds, 1)) s "
                  + "(\(loss) samples lost every 2 s, device clock \(fmt(driftPPM, 0)) ppm fast, ≤3 ms jitter)")
            print(" time   received  delivered    rate/s  gaps  missing  dropped  ring(now/peak/cap)  latency p99")
            let started = HostClock.now()
            try pipeline.start()
            // One row per second of stream time, on absolute deadlines so printing never drifts.
            for second in 1...Int((seconds + 0.5).rounded(.down)) {
                HostClock.sleep(until: started + Double(second))
                printRow(pipeline.statistics())
            }
            pipeline.stop()
            let stats = pipeline.statistics()
            printRow(stats)
            let s = summary.summary
            print("\ndone: \(stats.delivered) frames delivered of \(stats.received) received, "
                  + "\(stats.gapRecords) gap records (\(stats.missingFrames) frames missing), \(stats.dropped) dropped")
            print("timestamps: \(fmt(s.lastTimestamp - s.firstTimestamp, 3)) s span, "
                  + (s.timestampsIncreasing ? "strictly increasing" : "NOT increasing"))
            for (index, label) in labels.enumerated() {
                print("  \(label.padding(toLength: 4, withPad: " ", startingAt: 0)) mean \(fmt(s.means[index], 2)) µV"
                      + "  rms \(fmt(s.rms[index], 2)) µV  range \(fmt(s.minimums[index], 1))…\(fmt(s.maximums[index], 1)) µV")
            }
            for stage in stats.stages {
                print("  stage \(stage.name): \(stage.count) batches, p50 \(fmt(stage.p50 * 1e6, 1)) µs, "
                      + "p99 \(fmt(stage.p99 * 1e6, 1)) µs")
            }
            if !stats.failures.isEmpty { print("failures: \(stats.failures.map(\.description).joined(separator: "; "))") }
        }

        private func printRow(_ s: PipelineStatistics) {
            let ring = "\(s.occupancy)/\(s.peakOccupancy)/\(s.capacity)"
            print(String(format: "%5.1f  %9d  %9d  %8.1f  %4d  %7d  %7d  %18@  %8.2f ms",
                         s.elapsed, s.received, s.delivered, s.deliveredRate, s.gapRecords, s.missingFrames,
                         s.dropped, ring as NSString, s.latency.p99 * 1e3))
        }

        private func fmt(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    }
}
