import AxonStreams
import StreamTestSupport
import Testing

/// ``SampleCountLimit`` and ``SampleBlock/keepFirst(_:)``: a stream cut at exactly its limit, its gaps kept up to it.
struct SampleCountLimitTests {
    /// 10 packets of 7 frames with a counter, packet 3 lost: the limit falls inside packet 6.
    final class PacketSource: SampleSource, @unchecked Sendable {
        let descriptor = StreamDescriptor(
            name: "packets", contentType: .eeg, channels: [ChannelInfo(label: "C", unit: "µV")], nominalRate: 250,
            format: .float32, sourceID: "packets")
        func run(into writer: FrameWriter) throws {
            for packet in 0..<10 where packet != 3 {
                for k in 0..<7 {
                    let n = packet * 7 + k
                    writer.write([Double(n)], counter: UInt64(n), arrivalTime: Double(n) / 250)
                }
            }
            writer.finish()
        }
    }

    @Test("the pipeline delivers the first 40 frames and nothing after, with the gap before them; delivered counts 40")
    func cutsAtTheLimit() throws {
        let limit = SampleCountLimit(limit: 40)
        let sink = CollectingSink()
        let pipeline = StreamPipeline(
            source: PacketSource(), processors: [limit], sinks: [sink], configuration: .init(timeline: .init(clock: nil)))
        try pipeline.start()
        pipeline.waitUntilFinished()
        let got = sink.snapshot
        #expect(got.values.count == 40 && limit.passed == 40)
        let expected: [Double] = (0..<21).map { Double($0) } + (28..<47).map { Double($0) }
        #expect(got.values.map { $0[0] } == expected)
        #expect(got.gaps.map(\.missingCount) == [7])
        #expect(pipeline.statistics().delivered == 40)
    }

    @Test("a limit of 0 passes nothing; a limit beyond the stream passes all of it")
    func edges() throws {
        for (limit, expected) in [(0, 0), (1_000, 63)] {
            let sink = CollectingSink()
            let pipeline = StreamPipeline(
                source: PacketSource(), processors: [SampleCountLimit(limit: limit)], sinks: [sink],
                configuration: .init(timeline: .init(clock: nil)))
            try pipeline.start()
            pipeline.waitUntilFinished()
            #expect(sink.snapshot.values.count == expected)
        }
    }
}
