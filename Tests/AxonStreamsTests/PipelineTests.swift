import Foundation
import StreamTestSupport
import Testing

@testable import AxonStreams

@Suite("Pipeline", .serialized)
struct PipelineTests {
    private func frameValues(_ i: Int) -> [Double] { [Double(i), Double(i) + 0.25, -Double(i), 1000 + Double(i)] }

    /// A stalled consumer and a ring of N: N + k frames written → exactly k dropped, the right N delivered,
    /// one overflow gap record of k in the right place, and the process keeps running.
    @Test(arguments: OverflowPolicy.allCases, [1, 37])
    func stalledConsumerDropsExactlyTheExcess(policy: OverflowPolicy, excess k: Int) throws {
        let n = 256
        let sink = RecordingSink()
        let pipeline = StreamPipeline(
            descriptor: descriptor(), sinks: [sink],
            configuration: .init(ringCapacity: n, overflow: policy))
        let writer = try pipeline.makeWriter()
        // The consumer thread is not running yet: the ring fills and overflows.
        for i in 0..<(n + k) { writer.write(frameValues(i), counter: UInt64(i), arrivalTime: Double(i) / 250) }
        try pipeline.start()
        writer.finish()
        pipeline.waitUntilFinished()

        let stats = pipeline.statistics()
        #expect(stats.received == n + k)
        #expect(stats.dropped == k)
        #expect(stats.delivered == n)
        #expect(stats.peakOccupancy == n)
        let kept = policy == .dropOldest ? Array(k..<(n + k)) : Array(0..<n)
        #expect(sink.frames.map { $0.counter } == kept.map { UInt64($0) })
        #expect(sink.frames.allSatisfy { $0.values == frameValues(Int($0.counter!)) })
        try #require(sink.gaps.count == 1)
        #expect(sink.gaps[0].cause == .overflow)
        #expect(sink.gaps[0].missingCount == k)
        #expect(sink.gapPositions[0] == (policy == .dropOldest ? 0 : n))
        #expect(stats.gapRecords == 1 && stats.missingFrames == k)
        #expect(sink.closed)
    }

    /// A lossless producer streaming through a small ring many times over: under `.rejectNewest` the stages work on
    /// the ring's slots in place, under `.dropOldest` on a copy; either way every frame arrives once, in order,
    /// with no gap, and what a processor changes in the block is what the sinks receive.
    @Test(arguments: OverflowPolicy.allCases)
    func processorChangesReachTheSinksAcrossRingWraps(policy: OverflowPolicy) throws {
        final class Doubler: SampleProcessor {
            let name = "doubler"
            func process(_ block: SampleBlock) {
                for frame in 0..<block.frameCount {
                    let values = block.values(ofFrame: frame)
                    for channel in 0..<values.count { values[channel] *= 2 }
                }
            }
        }
        let frames = 5_000
        let sink = RecordingSink()
        let pipeline = StreamPipeline(
            descriptor: descriptor(), processors: [Doubler()], sinks: [sink],
            configuration: .init(ringCapacity: 64, overflow: policy, batchSize: 24))
        let writer = try pipeline.makeWriter()
        try pipeline.start()
        var written = 0
        while written < frames {
            // Only into free slots, so neither policy has a reason to lose a frame.
            let room = min(writer.freeCapacity, frames - written)
            if room == 0 {
                sched_yield()
                continue
            }
            for i in written..<(written + room) {
                #expect(writer.write(frameValues(i), counter: UInt64(i), arrivalTime: Double(i) / 250))
            }
            written += room
        }
        writer.finish()
        pipeline.waitUntilFinished()

        #expect(pipeline.statistics().dropped == 0)
        #expect(sink.gaps.isEmpty)
        #expect(sink.frames.map { $0.counter } == (0..<frames).map { UInt64($0) })
        #expect(sink.frames.allSatisfy { frame in frame.values == frameValues(Int(frame.counter!)).map { $0 * 2 } })
    }

    /// A simulated device with lost packets, as fast as the ring takes it: every frame arrives in order with
    /// its exact values, each loss is one device-counter gap, and times increase.
    @Test func simulatedSourceEndToEnd() throws {
        let lost: Set<Int> = [100, 101, 102, 2000]
        let source = SimulatedSource(configuration: .init(
            noise: 0, duration: 20, realTime: false, samplesPerPacket: 4, lostSamples: lost))
        let sink = RecordingSink()
        let summary = SummarySink()
        let pipeline = StreamPipeline(
            source: source, sinks: [sink, summary],
            configuration: .init(ringCapacity: 8192, overflow: .rejectNewest))
        try pipeline.start()
        pipeline.waitUntilFinished()

        let stats = pipeline.statistics()
        #expect(stats.received == 5000 - lost.count)
        #expect(stats.delivered == 5000 - lost.count)
        #expect(stats.dropped == 0)
        #expect(sink.frames.count == 5000 - lost.count)
        #expect(sink.gaps.map(\.missingCount) == [3, 1])
        #expect(sink.gaps.allSatisfy { $0.cause == .deviceCounter })
        #expect(sink.gapPositions == [100, 1997])
        var exact = true
        for frame in sink.frames {
            let index = Int(frame.counter!)
            for channel in 0..<4 where abs(frame.values[channel] - source.idealValue(channel: channel, index: index)) > 1e-9 {
                exact = false
            }
        }
        #expect(exact)
        #expect(summary.summary.timestampsIncreasing)
        #expect(summary.summary.frames == 5000 - lost.count)
        // The gap keeps its length on the time axis: frame after the 3-sample hole is 4 periods later.
        let before = sink.frames[99].timestamp
        let after = sink.frames[100].timestamp
        #expect(abs(sink.gaps[0].start - (before + 0.004)) < 1e-6)
        #expect(abs((after - before) - 0.016) < 0.002)
        #expect(stats.stages.map(\.name) == ["timeline", "recording", "summary"])
        #expect(stats.latency.count == 5000 - lost.count)
    }

    /// A sink that throws is taken out and reported; the other sinks still receive everything.
    @Test func failingSinkIsIsolated() throws {
        let failing = RecordingSink(name: "flaky", failAfterBlocks: 2)
        let healthy = RecordingSink(name: "healthy")
        let pipeline = StreamPipeline(
            descriptor: descriptor(), sinks: [failing, healthy],
            configuration: .init(ringCapacity: 4096, batchSize: 100))
        let writer = try pipeline.makeWriter()
        for i in 0..<1000 { writer.write(frameValues(i), counter: UInt64(i)) }
        try pipeline.start()
        writer.finish()
        pipeline.waitUntilFinished()
        let stats = pipeline.statistics()
        #expect(healthy.frames.count == 1000)
        #expect(failing.frames.count == 200)
        #expect(stats.failures.count == 1)
        #expect(stats.failures.first?.description.contains("flaky") == true)
        #expect(healthy.closed && !failing.closed)
    }

    /// `stop()` on a live real-time stream delivers everything already received and closes the sinks.
    @Test func stopDeliversEverythingBuffered() throws {
        let source = SimulatedSource(configuration: .init(rate: 1000, duration: nil, samplesPerPacket: 10))
        let summary = SummarySink()
        let pipeline = StreamPipeline(source: source, sinks: [summary])
        try pipeline.start()
        waitUntil(seconds: 30, interval: 0.001) { pipeline.statistics().received >= 200 }
        pipeline.stop()
        let stats = pipeline.statistics()
        #expect(stats.received >= 200)
        #expect(stats.delivered == stats.received - stats.dropped)
        #expect(stats.occupancy == 0)
        #expect(summary.summary.frames == stats.delivered)
    }

    /// A busy-waiting consumer (``IdleStrategy/polling``) takes frames as they come, sees the producer's end and
    /// delivers everything: it never sleeps, so its polling alone finds the frames and the end.
    @Test func pollingConsumerDeliversAndEnds() throws {
        let sink = RecordingSink()
        let pipeline = StreamPipeline(
            descriptor: descriptor(), sinks: [sink], configuration: .init(ringCapacity: 64, idle: .polling))
        let writer = try pipeline.makeWriter()
        try pipeline.start()
        for i in 0..<500 {
            while writer.freeCapacity == 0 { sched_yield() }
            writer.write(frameValues(i), counter: UInt64(i), arrivalTime: Double(i) / 250)
            // Every 50 frames, wait until the consumer has taken everything: it polls an empty ring until the next write.
            if i % 50 == 0 { while writer.freeCapacity < writer.ringCapacity { sched_yield() } }
        }
        writer.finish()
        pipeline.waitUntilFinished()
        let stats = pipeline.statistics()
        #expect(stats.received == 500 && stats.delivered == 500 && stats.dropped == 0)
        #expect(sink.frames.count == 500)
    }

    @Test func misuseIsATypedError() throws {
        let pipeline = StreamPipeline(source: SimulatedSource(configuration: .init(duration: 0.1, realTime: false)),
                                      sinks: [])
        #expect(throws: PipelineError.writerUnavailable) { try pipeline.makeWriter() }
        try pipeline.start()
        #expect(throws: PipelineError.alreadyStarted) { try pipeline.start() }
        pipeline.waitUntilFinished()
    }

    /// A sink that cannot open stops `start()` with an error that names it.
    @Test func sinkThatCannotOpenFailsStart() {
        final class Broken: SampleSink {
            struct Refused: Error {}
            let name = "broken"
            func open(_ descriptor: StreamDescriptor) throws { throw Refused() }
            func write(_ block: SampleBlock) throws {}
            func close() throws {}
        }
        let pipeline = StreamPipeline(descriptor: descriptor(), sinks: [Broken()])
        #expect(throws: PipelineError.self) { try pipeline.start() }
    }
}

@Suite("Stream descriptor")
struct StreamDescriptorTests {
    @Test func equalDescriptorsMeanTheSameStream() throws {
        let a = descriptor()
        var b = descriptor()
        #expect(a == b && a.hashValue == b.hashValue)
        b.sourceID = "other"
        #expect(a != b)
        let decoded = try JSONDecoder().decode(StreamDescriptor.self, from: JSONEncoder().encode(a))
        #expect(decoded == a)
        #expect(a.samplePeriod == 0.004 && a.isRegular && a.channelCount == 4)
        let markers = StreamDescriptor(name: "marks", contentType: .markers, channels: [.init(label: "m", unit: "")],
                                       nominalRate: 0, format: .string, sourceID: "ui")
        #expect(!markers.isRegular && markers.samplePeriod == nil)
    }
}
