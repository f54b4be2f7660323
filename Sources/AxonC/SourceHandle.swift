// AxonC — what an axon_source handle holds: a device, stream, simulator or replayed recording running through a
// pipeline into a ring, and the reading side of that ring.

import AxonBrainiac
import AxonConnect
import AxonDevices
import AxonRecording
import AxonStreams
import CAxonABI
import Foundation

/// A running source: its pipeline (source thread → ring → timeline → ``HandOffSink``) and what reading it needs.
///
/// Threading: ``read(count:timeout:into:)`` from one thread at a time (the ring's consumer side); `close` once no
/// read runs. The pipeline's threads run on their own between `init` and `close`.
final class SourceHandle {
    let descriptor: StreamDescriptor
    let kind: String
    let title: String
    private let pipeline: StreamPipeline
    private let sink: HandOffSink
    private let release: () -> Void
    /// A gap record popped after frames in the same read, returned first by the next read.
    private var pendingGap: axon_source_gap?
    private var trailingGapReported = false
    private var closed = false

    static let kind = "source"

    init(source: any SampleSource, pipeline configuration: StreamPipeline.Configuration, kind: String, title: String,
         release: @escaping () -> Void) throws(CallFailure)
    {
        descriptor = source.descriptor
        self.kind = kind
        self.title = title
        self.release = release
        sink = HandOffSink(channels: source.descriptor.channelCount)
        pipeline = StreamPipeline(source: source, sinks: [sink], configuration: configuration)
        do throws(PipelineError) { try pipeline.start() } catch {
            release()
            throw CallFailure(status: AXON_ERR_DEVICE, message: "axon_source_open: the stream cannot start: \(error)")
        }
    }

    deinit { close() }

    /// Stops the source, waits for its threads and lets go of the device.
    func close() {
        guard !closed else { return }
        closed = true
        pipeline.stop()
        pipeline.waitUntilFinished()
        release()
    }

    /// The outcome of one read.
    struct Read {
        var frames = 0
        var gap: axon_source_gap?
    }

    /// Up to `count` frames into the caller's buffers (channel-major with stride `count`), waiting up to `timeout`
    /// seconds for the first; stops before a gap record, which a read without frames returns instead.
    ///
    /// - Throws: `AXON_ERR_ENDED` once the stream has ended and everything was read; `AXON_ERR_DEVICE` when it ended
    ///   because the source failed.
    func read(
        count: Int, timeout: Double, samples: UnsafeMutablePointer<Double>, times: UnsafeMutablePointer<Double>?,
        counters: UnsafeMutablePointer<Double>?, in function: String
    ) throws(CallFailure) -> Read {
        if let gap = pendingGap {
            pendingGap = nil
            return Read(frames: 0, gap: gap)
        }
        let ring = sink.ring
        if ring.isEmpty {
            if ring.isFinished { return try end(in: function) }
            if timeout > 0 { ring.waitForData(timeout: timeout) }
        }
        var result = Read()
        let channels = sink.channels
        while result.frames < count {
            var stop = false
            let taken = ring.withOldestSlots(upTo: 1) { slot, _ in
                if slot[0] == HandOffSink.Kind.gap.rawValue {
                    var gap = axon_source_gap()
                    gap.start_time = slot[1]
                    gap.end_time = slot[2]
                    gap.missing_count = Int64(slot[3])
                    gap.cause = Int32(slot[4])
                    if result.frames == 0 { result.gap = gap } else { self.pendingGap = gap }
                    stop = true
                    return
                }
                let index = result.frames
                times?[index] = slot[1]
                counters?[index] = slot[2]
                for channel in 0..<channels { samples[channel * count + index] = slot[HandOffSink.headerLanes + channel] }
                result.frames += 1
            }
            if taken == 0 || stop { break }
        }
        if result.frames == 0, result.gap == nil, ring.isFinished { return try end(in: function) }
        return result
    }

    /// What a read returns once the ring is finished and empty: the trailing gap of frames refused at the end, once,
    /// then the end itself.
    private func end(in function: String) throws(CallFailure) -> Read {
        if !trailingGapReported, let trailing = sink.trailingGap {
            trailingGapReported = true
            var gap = axon_source_gap()
            gap.start_time = trailing.start
            gap.end_time = trailing.end
            gap.missing_count = Int64(trailing.missing)
            gap.cause = AXON_GAP_OVERFLOW
            return Read(frames: 0, gap: gap)
        }
        throw endFailure(in: function)
    }

    /// Why the stream ended: the source's failure, or its natural end.
    private func endFailure(in function: String) -> CallFailure {
        if let failure = pipeline.statistics().failures.first {
            return CallFailure(status: AXON_ERR_DEVICE, message: "\(function): the \(title) failed: \(failure.cause)")
        }
        return CallFailure(status: AXON_ERR_ENDED, message: "\(function): the \(title) has ended")
    }

    /// The handle behind `handle`.
    static func from(_ handle: OpaquePointer?, in function: String) throws(CallFailure) -> SourceHandle {
        try HandleRegistry.shared.object(handle, as: SourceHandle.self, kind: kind, in: function)
    }
}
