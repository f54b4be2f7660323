import AxonRecording
import AxonStreams
import Benchmark
import Foundation

/// An EDF+/BDF+ writer on a temporary file and one data record's worth of pipeline rows (250 frames), appended once
/// per iteration: each iteration converts and stores every sample, fills the annotation signal with its time-keeping
/// TAL, writes the record, rewrites the header's count and — with `synchronizes` — fsyncs, as a recording does every
/// second. The file grows across iterations (one writer, reused) and is removed afterwards.
final class RecordFixture {
    let writer: EDFWriter
    let rows: UnsafeMutableBufferPointer<Double>
    let layout: FrameLayout
    let frames = 250
    let path: String

    init(channels: Int, format: EDFWriter.Format, synchronizes: Bool) throws {
        layout = FrameLayout(channelCount: channels)
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("axon-bench-\(UUID().uuidString).\(format.fileExtension)").path
        let descriptor = StreamDescriptor(
            name: "Bench", contentType: .eeg,
            channels: (0..<channels).map { ChannelInfo(label: "ch\($0 + 1)", unit: "µV") }, nominalRate: 250,
            format: .float32, sourceID: "bench")
        writer = try EDFWriter(
            path: path, descriptor: descriptor, startUnixTime: 1_763_800_000,
            options: .init(format: format, synchronizes: synchronizes))
        rows = .allocate(capacity: frames * layout.width)
        for frame in 0..<frames {
            for lane in 0..<layout.width {
                let t = Double(frame) / 250
                rows.initializeElement(
                    at: frame * layout.width + lane, to: 40 * sin(2 * .pi * 10 * t + Double(lane)) + Double(lane))
            }
        }
    }

    deinit {
        try? writer.close()
        rows.deallocate()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Appends one data record of frames; returns the samples written.
    @inline(__always) func record() throws -> Int {
        try writer.append(
            rows: UnsafeBufferPointer(rows), stride: layout.width, valueOffset: FrameLayout.headerLanes,
            frameCount: frames)
        return frames * layout.channelCount
    }
}

func registerRecordBenchmarks() {
    // Throughput is data records per second (`scalingFactor: .one`); samples/s = records/s × samples per record.
    func register(_ name: String, channels: Int, format: EDFWriter.Format, synchronizes: Bool) {
        Benchmark(
            name,
            configuration: .init(
                metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .one,
                maxDuration: RunLimits.duration(.seconds(2)), maxIterations: RunLimits.iterations(5_000))
        ) { (benchmark: Benchmark, fixture: RecordFixture) in
            var samples = 0
            do {
                for _ in benchmark.scaledIterations { samples &+= try fixture.record() }
            } catch {
                benchmark.error("write failed: \(error)")
            }
            blackHole(samples)
        } setup: {
            try RecordFixture(channels: channels, format: format, synchronizes: synchronizes)
        }
    }
    // One iteration = one 1 s data record: 4 × 250 = 1000 samples (EDF), 64 × 250 = 16,000 samples (BDF), with the
    // header count rewritten after it (a pwrite) but no fsync: the writer's own cost. Samples/s = records/s × 1000
    // (or × 16,000).
    register("Record.edf4ch", channels: 4, format: .edfPlus, synchronizes: false)
    register("Record.bdf64ch", channels: 64, format: .bdfPlus, synchronizes: false)
    // As `axon record` runs it: an fsync after every record, so the disk's sync latency sets the pace.
    register("Record.edf4ch.fsync", channels: 4, format: .edfPlus, synchronizes: true)
}
