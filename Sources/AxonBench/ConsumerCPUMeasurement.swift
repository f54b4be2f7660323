// AxonBench — what one real-time device costs the pipeline's consumer thread, from the kernel's own accounting.

import AxonEEG
import AxonStreams
import Foundation

/// Runs one simulated device in real time (frames one by one at its rate) through a pipeline with the EEG engine
/// and the default idle strategy, and reads the consumer thread's CPU time (`utime + stime` of
/// `/proc/self/task/TID/stat`, the thread named `axon-consume`) before and after.
///
/// Threading: the calling thread waits; the pipeline's threads run.
enum ConsumerCPUMeasurement {
    /// The consumer's CPU time as a percentage of one core over `seconds` of real time.
    static func run(_ workload: BenchWorkload, seconds: Double) throws(BenchError) -> Double {
        let processor: EEGProcessor
        do { processor = try EEGProcessor(configuration: workload.engineConfiguration()) } catch {
            throw .setupFailed("EEG processor", cause: error)
        }
        processor.requestBaseline()
        let tones = Array(repeating: [SimulatedSource.Tone(frequency: 10, amplitude: 20)], count: workload.channels)
        let source = SimulatedSource(
            configuration: .init(
                rate: Double(workload.sampleRate), channelLabels: workload.descriptor.channels.map(\.label), tones: tones,
                duration: seconds + 1, realTime: true))
        let pipeline = StreamPipeline(source: source, processors: [processor], sinks: [])
        do { try pipeline.start() } catch { throw .setupFailed("pipeline", cause: error) }
        defer {
            pipeline.stop()
        }
        // Let the threads start and the first second settle before measuring.
        HostClock.sleep(until: HostClock.now() + 0.5)
        guard let task = consumerTask(), let before = cpuTicks(task: task) else {
            throw .setupFailed("the consumer thread axon-consume was not found in /proc/self/task")
        }
        let start = HostClock.now()
        HostClock.sleep(until: start + seconds)
        guard let after = cpuTicks(task: task) else { throw .setupFailed("the consumer thread ended early") }
        let elapsed = HostClock.now() - start
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return Double(after - before) / ticksPerSecond / elapsed * 100
    }

    private static func consumerTask() -> String? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.first { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == "axon-consume"
        }
    }

    /// utime + stime in clock ticks (fields 14 and 15 of the stat line, counted after the command's closing
    /// parenthesis, which may itself hold spaces).
    private static func cpuTicks(task: String) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3): utime is field 14, stime field 15.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}
