// The consumer thread's real-time options: applied when allowed, reported when refused, never fatal.

import Foundation
import Testing

@testable import AxonStreams

@Suite("Pipeline: real-time options for the consumer thread")
struct RealTimeOptionsTests {
    /// The CPU list the kernel reports for this process's thread named `name`.
    static func allowedCPUs(ofThread name: String) throws -> String? {
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            guard comm.trimmingCharacters(in: .whitespacesAndNewlines) == name else { continue }
            let status = try String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
            return line.map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    static func pipeline(_ options: RealTimeOptions) -> StreamPipeline {
        var configuration = StreamPipeline.Configuration()
        configuration.realTime = options
        return StreamPipeline(
            descriptor: StreamDescriptor(
                name: "rt", contentType: .eeg, channels: [ChannelInfo(label: "x", unit: "µV")], nominalRate: 250,
                format: .float32, sourceID: "rt"),
            processors: [], sinks: [], configuration: configuration)
    }

    @Test("pinned to CPU 0, the consumer thread runs only there and nothing is refused")
    func affinityApplies() throws {
        let pipeline = Self.pipeline(RealTimeOptions(cpus: [0]))
        let writer = try pipeline.makeWriter()
        try pipeline.start()
        #expect(pipeline.realTimeRefusals.isEmpty)
        #expect(try Self.allowedCPUs(ofThread: "axon-consume") == "0")
        writer.write([1.0])
        writer.finish()
        pipeline.waitUntilFinished()
        #expect(pipeline.statistics().delivered == 1)
    }

    @Test("a CPU that does not exist and a priority out of range are reported, and the stream still runs")
    func refusalsAreReported() throws {
        let pipeline = Self.pipeline(RealTimeOptions(cpus: [4000], fifoPriority: 0))
        let writer = try pipeline.makeWriter()
        try pipeline.start()
        let refusals = pipeline.realTimeRefusals
        #expect(refusals.count == 2, "\(refusals)")
        #expect(refusals.first?.hasPrefix("CPU affinity [4000]") == true)
        #expect(refusals.last?.hasPrefix("SCHED_FIFO priority 0") == true)
        for value in 0..<10 { writer.write([Double(value)]) }
        writer.finish()
        pipeline.waitUntilFinished()
        #expect(pipeline.statistics().delivered == 10)
    }
}
