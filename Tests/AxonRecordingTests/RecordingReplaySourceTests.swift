import AxonStreams
import Testing

@testable import AxonRecording

@Suite("Recording replay", .serialized)
struct RecordingReplaySourceTests {
    /// Plays `recording` through a pipeline and returns what the sink received and the pipeline's statistics.
    func play(
        _ recording: Recording, options: RecordingReplaySource.Options, ringCapacity: Int = 4096,
        batchSize: Int = 256
    ) throws -> (frames: [CollectingSink.Frame], gaps: [GapRecord], statistics: PipelineStatistics, seconds: Double) {
        let replay = RecordingReplaySource(recording: recording, options: options)
        let sink = CollectingSink()
        let pipeline = StreamPipeline(
            source: replay, sinks: [sink],
            configuration: replay.pipelineConfiguration(ringCapacity: ringCapacity, batchSize: batchSize))
        let start = HostClock.now()
        try pipeline.start()
        pipeline.waitUntilFinished()
        let seconds = HostClock.now() - start
        #expect(sink.closed)
        return (sink.frames, sink.gaps, pipeline.statistics(), seconds)
    }

    /// The whole OpenBCI file as fast as possible through a small ring (the replay has to wait for room again
    /// and again): every frame arrives once, in order, with its values, recorded time and sample index, and
    /// nothing is dropped or reported missing.
    @Test(arguments: [64, 4096])
    func fastReplayDeliversEveryFrameExactly(ringCapacity: Int) throws {
        let recording = try TestData.openBCI.get()
        let run = try play(
            recording, options: .init(speed: .asFastAsPossible), ringCapacity: ringCapacity,
            batchSize: 32)
        #expect(run.frames.count == 22_490)
        #expect(run.statistics.received == 22_490 && run.statistics.delivered == 22_490)
        #expect(run.statistics.dropped == 0)
        #expect(run.gaps.isEmpty)
        #expect(run.statistics.failures.isEmpty)
        var wrong = 0
        for (index, frame) in run.frames.enumerated() {
            if frame.sequence != Double(index) || frame.values != Array(recording.frame(index))
                || frame.deviceTime != recording.timestamps![index] || frame.counter != recording.counters![index]
            {
                wrong += 1
            }
        }
        #expect(wrong == 0)
        // Virtual arrivals reproduce the recording's own timing at 1×.
        let first = run.frames[0].arrival
        let origin = recording.timestamps![0]
        let arrivalErrors = run.frames.indices.map {
            abs((run.frames[$0].arrival - first) - (recording.timestamps![$0] - origin))
        }
        #expect(arrivalErrors.max()! < 1e-6)
        #expect(zip(run.frames, run.frames.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    /// Without timestamps or counters, deviceTime is index ÷ rate and the counter is the frame index.
    @Test func recordingWithoutTimesUsesTheNominalRate() throws {
        let descriptor = StreamDescriptor(
            name: "plain", contentType: .eeg,
            channels: [
                ChannelInfo(label: "A", unit: "µV"),
                ChannelInfo(label: "B", unit: "µV"),
            ],
            nominalRate: 100, format: .float32, sourceID: "plain")
        let values: [Double] = (0..<500).flatMap { (index: Int) -> [Double] in [Double(index), -Double(index)] }
        let recording = Recording(descriptor: descriptor, values: values)
        #expect(recording.frameCount == 500)
        let run = try play(recording, options: .init(speed: .asFastAsPossible), ringCapacity: 16, batchSize: 4)
        #expect(run.frames.count == 500)
        let counters: [UInt64] = (0..<500).map { UInt64($0) }
        let deviceTimes: [Double] = (0..<500).map { Double($0) / 100 }
        let frameValues: [[Double]] = (0..<500).map { (index: Int) -> [Double] in [Double(index), -Double(index)] }
        #expect(run.frames.map(\.counter) == counters)
        #expect(run.frames.map(\.deviceTime) == deviceTimes)
        #expect(run.frames.map(\.values) == frameValues)
        #expect(run.gaps.isEmpty && run.statistics.dropped == 0)
    }

    /// `.nominalRate` replaces the OpenBCI packet stamps by the first stamp + index ÷ 250.
    @Test func nominalDeviceClock() throws {
        let recording = try TestData.openBCI.get().frames(0..<1_000)
        let run = try play(recording, options: .init(speed: .asFastAsPossible, deviceClock: .nominalRate))
        let origin = recording.timestamps![0]
        #expect(run.frames.count == 1_000)
        #expect(run.frames.indices.allSatisfy { run.frames[$0].deviceTime == origin + Double($0) / 250 })
    }

    /// 2 s of Muse data at 50×: paced by absolute deadlines, so it cannot finish before 2 s ÷ 50; frames arrive
    /// in order, complete, in packets (several frames share an arrival time).
    @Test func realTimeReplayIsPacedAndComplete() throws {
        let muse = try TestData.muse.get().segment(from: 0, to: 2)
        #expect(muse.frameCount == 512)
        let span = muse.timestamps!.last! - muse.timestamps!.first!
        let run = try play(muse, options: .init(speed: .realTime(multiplier: 50)))
        #expect(run.frames.count == 512)
        #expect(run.frames.map(\.sequence) == (0..<512).map(Double.init))
        #expect(run.frames.map { $0.deviceTime! } == muse.timestamps!)
        #expect(run.gaps.isEmpty && run.statistics.dropped == 0)
        #expect(run.seconds >= span / 50)
        #expect(run.seconds < 30)  // only a sanity bound: the machine is shared
        let arrivals = run.frames.map(\.arrival)
        #expect(zip(arrivals, arrivals.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(abs((arrivals.last! - arrivals.first!) - span / 50) < 0.005)
        let packets = Set(arrivals).count
        #expect(packets > 1 && packets < 512 / 4)
    }

    /// A stop request ends a 90-second real-time replay at once; what was written is delivered, in order.
    @Test func stopEndsTheReplay() throws {
        let recording = try TestData.openBCI.get()
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .realTime()))
        let sink = CollectingSink()
        let pipeline = StreamPipeline(source: replay, sinks: [sink], configuration: replay.pipelineConfiguration())
        let start = HostClock.now()
        try pipeline.start()
        pipeline.stop()
        #expect(HostClock.now() - start < 10)
        #expect(sink.frames.count < 22_490)
        #expect(sink.frames.map(\.counter) == recording.counters!.prefix(sink.frames.count).map { $0 })
        #expect(sink.closed)
    }

    @Test func emptyRecordingFinishesAtOnce() throws {
        let bytes = try TestData.openBCIBytes.get()
        let empty = try OpenBCITextReader().read(bytes: Array(bytes[..<bytes.offset(ofLine: 6)]))
        let run = try play(empty, options: .init(speed: .realTime()))
        #expect(run.frames.isEmpty && run.statistics.received == 0)
    }

    @Test func configurationCarriesTheCounterModulus() throws {
        let replay = RecordingReplaySource(recording: try TestData.openBCI.get())
        let configuration = replay.pipelineConfiguration(ringCapacity: 1024)
        #expect(configuration.timeline.counterModulus == 256)
        #expect(configuration.overflow == .rejectNewest)
        #expect(configuration.ringCapacity == 1024)
        #expect(
            RecordingReplaySource(recording: try TestData.muse.get()).pipelineConfiguration()
                .timeline.counterModulus == nil)
    }

    /// A gap in the file's sample index (rows removed) reaches the pipeline as a device-counter gap.
    @Test func lostSamplesInTheFileBecomeGapRecords() throws {
        let full = try TestData.openBCI.get().frames(0..<2_000)
        let kept = Array(0..<700) + Array(705..<2_000)
        let values = kept.flatMap { Array(full.frame($0)) }
        let holed = Recording(
            descriptor: full.descriptor, values: values, timestamps: kept.map { full.timestamps![$0] },
            counters: kept.map { full.counters![$0] }, counterModulus: 256)
        let run = try play(holed, options: .init(speed: .asFastAsPossible))
        #expect(run.frames.count == 1_995)
        #expect(run.gaps.count == 1)
        #expect(run.gaps.first?.cause == .deviceCounter)
        #expect(run.gaps.first?.missingCount == 5)
    }
}
