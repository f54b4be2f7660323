// Built with the LiveView trait (on by default; see Package.swift).
#if LiveView
import ArgumentParser
import AxonBench
import AxonRecording
import Foundation

extension Axon {
    /// `axon view-bench`: the engine's figures with no viewer and with several, side by side in one run.
    struct ViewBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "view-bench",
            abstract: "Replay a recording fast through the engine and the live view, with no viewer and "
                + "with N WebSocket viewers (plus one that never reads), alternating; print latency p99, the engine "
                + "stage's p99 and allocations per hop on the engine's thread for both.")

        @Argument(help: "Recording to replay.")
        var file: String = Demo.defaultFile

        @Option(help: "Channels to use (comma-separated labels).")
        var channels: String = "EXG2,EXG3,EXG6,EXG7"

        @Option(help: "Viewers that read everything.")
        var viewers: Int = 5

        @Option(help: "Runs of each kind (they alternate).")
        var runs: Int = 3

        @Option(help: "Replay speed (the latency is only meaningful when the engine keeps up).")
        var speed: Double = 20

        @Flag(help: "Replay as fast as possible instead (the engine's per-batch time is then the latency figure).")
        var fast = false

        @Option(help: "With --fast: minutes of device time per run (the recording played end to end repeatedly).")
        var minutes: Double = 240

        @Flag(help: ArgumentHelp("Let the engine's thread share CPUs with the viewers, the server and the replay.",
            discussion: "By default it gets a CPU of its own when there are two or more, so that its figures count "
                + "its own work rather than the scheduler's choices."))
        var sharedCores = false

        func validate() throws {
            guard viewers >= 1, runs >= 1, speed > 0, minutes > 0 else {
                throw ValidationError("need viewers, runs, speed and minutes > 0")
            }
        }

        func run() async throws {
            let labels = channels.split(separator: ",").map { String($0) }
            var recording = try RecordingReader.read(path: file).selecting(channels: labels)
            if fast { recording = ViewMeasurement.repeated(recording, minutes: minutes) }
            print("axon view-bench: \(URL(fileURLWithPath: file).lastPathComponent) "
                + "(\(recording.frameCount) samples), " + (fast ? "as fast as possible" : "at \(fmt(speed, 0))× real time")
                + "; \(runs) runs each of 0 and \(viewers) viewers "
                + "(+1 that never reads), alternating")
            let cpus = CPUAffinity.available
            var engineCPU: Int?
            if !sharedCores, cpus.count >= 2, CPUAffinity.pinProcess(to: Array(cpus.dropFirst())) {
                engineCPU = cpus[0]
                print("the engine's thread on CPU \(cpus[0]), every other thread on CPU "
                    + cpus.dropFirst().map(String.init).joined(separator: ",") + " (--shared-cores to mix them)")
            }
            let measurement = ViewMeasurement(
                speed: fast ? .asFastAsPossible : .realTime(multiplier: speed), engineCPU: engineCPU)
            var without: [ViewMeasurement.Figures] = []
            var with: [ViewMeasurement.Figures] = []
            for _ in 0..<runs {
                without.append(try await measurement.measure(recording, viewers: 0))
                with.append(try await measurement.measure(recording, viewers: viewers))
            }
            func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            let rows: [(String, (ViewMeasurement.Figures) -> Double, String)] = [
                ("latency p99 (push → sinks)", { $0.latencyP99 * 1e3 }, "ms"),
                ("engine stage p99 per batch", { $0.engineP99 * 1e6 }, "µs"),
                ("frames per engine batch (mean)", { $0.framesPerBatch }, ""),
                ("allocations per hop, engine thread", { $0.allocationsPerHop }, ""),
                ("run's wall time (s)", { $0.elapsed }, ""),
            ]
            // The ranges show how far single runs stray: a ratio of medians is only as good as the runs' spread.
            print("figure (median of \(runs))".padding(toLength: 38, withPad: " ", startingAt: 0)
                + "0 viewers".leftPadded(12) + "\(viewers) viewers".leftPadded(12) + "ratio".leftPadded(8)
                + "   range of runs: 0 / \(viewers) viewers")
            for (name, value, unit) in rows {
                let a = median(without.map(value))
                let b = median(with.map(value))
                func range(_ figures: [ViewMeasurement.Figures]) -> String {
                    let values = figures.map(value)
                    return fmt(values.min() ?? 0, 3) + "–" + fmt(values.max() ?? 0, 3)
                }
                print((name + (unit.isEmpty ? "" : " (\(unit))")).padding(toLength: 38, withPad: " ", startingAt: 0)
                    + fmt(a, 3).leftPadded(12) + fmt(b, 3).leftPadded(12)
                    + (a > 0 ? fmt(b / a, 3) : "–").leftPadded(8) + "   " + range(without) + " / " + range(with))
            }
            if fast {
                print("(as fast as possible: a replay stamps virtual arrival times, so push → sinks counts queueing; the "
                    + "engine stage's p99 per batch is the latency figure)")
            }
            let stalled = with.map(\.stalledPeak).max() ?? 0
            print("viewer that never reads: at most \(stalled) of \(with.first?.queueCapacity ?? 0) messages queued, "
                + "\(with.map(\.skippedByStalled).max() ?? 0) skipped; readers received "
                + "\(fmt(Double(with.map(\.bytesRead).reduce(0, +)) / Double(runs) / 1e6, 2)) MB per run")
        }
    }
}
#endif
