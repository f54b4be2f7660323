import AxonMemory
import AxonStreams

/// Records a pipeline's stream into an EDF+ or BDF+ file through an ``EDFWriter``.
///
///     let sink = EDFSink(path: "session.edf", options: .init(format: .edfPlus))
///     let pipeline = StreamPipeline(source: headset, sinks: [sink])
///     try pipeline.start()
///     sink.annotate(onset: 30, text: "eyes closed")      // from any thread
///     pipeline.stop()                                     // closes the file
///
/// - The file is created with the first frame (its time is the file's start: the frame's dejittered host time as
///   Unix time, or its device time with ``TimeBase/device`` when that holds a Unix time).
/// - Each ``AxonStreams/GapRecord`` becomes an annotation `gap: 12 samples (deviceCounter)` at the first missing
///   sample, and the missing samples are written as **fill holding each channel's last value**, because EDF+C is
/// continuous: every
///   later sample keeps its exact time (sample index ÷ rate). The fill is counted in the writer's `filledSamples`.
/// - Annotations from other threads go through an ``AnnotationInbox`` (a lock-free ring whose submitters share a
///   mutex; the consumer never locks) and are written with the next block.
///
/// Threading contract: `open`, `write` and `close` on the pipeline's consumer thread (the ``AxonStreams/SampleSink``
/// contract); `annotate` from any thread; ``writer`` only after the pipeline has finished. Writing a block allocates
/// nothing unless it carries gaps (their annotation text).
public final class EDFSink: SampleSink, @unchecked Sendable {
    // Sendable invariant: `writer`, `scratch` and the descriptor state are touched only by the consumer thread
    // (and by the controller after the pipeline is joined); `inbox` is thread-safe by construction.

    /// Where a file's time comes from.
    public enum TimeBase: Sendable, Hashable {
        /// The frames' dejittered host time, converted to Unix time.
        case host
        /// The frames' device time when it is a Unix time (after 2001), else the host time.
        case device
    }

    /// `edf:<path>`.
    public let name: String
    /// The file.
    public let path: String
    /// The writer's options.
    public let options: EDFWriter.Options
    /// Where the start time comes from.
    public let timeBase: TimeBase
    /// Annotations waiting to be written.
    public let inbox: AnnotationInbox
    /// The writer, once the first frame has arrived. Read it after the pipeline has finished.
    public private(set) var writer: EDFWriter?

    private var descriptor: StreamDescriptor?
    private var wallClockOffset = 0.0
    private let scratch: OwnedBuffer<UInt8>

    /// Creates a sink; the file is created with the first frame.
    public init(
        path: String, options: EDFWriter.Options = .init(), timeBase: TimeBase = .host,
        inbox: AnnotationInbox = AnnotationInbox()
    ) {
        self.name = "edf:\(path)"
        self.path = path
        self.options = options
        self.timeBase = timeBase
        self.inbox = inbox
        scratch = OwnedBuffer(repeating: 0, count: inbox.slotSize)
    }

    /// Writes every waiting annotation into `writer` (consumer thread).
    private func drainInbox(into writer: EDFWriter) {
        scratch.withUnsafeMutableBufferPointer { scratch in
            inbox.drain(using: scratch) { onset, isUnix, duration, text in
                writer.annotate(onset: isUnix ? onset - writer.startUnixTime : onset, duration: duration, utf8: text)
            }
        }
    }

    /// Annotates `text` at `onset` seconds from the file's first sample. Any thread.
    /// - Returns: `false` if the inbox is full.
    @discardableResult
    public func annotate(onset: Double, duration: Double? = nil, text: String) -> Bool {
        inbox.submit(onset: onset, unixTime: false, duration: duration, text: text)
    }

    /// Annotates `text` at a Unix time. Any thread.
    @discardableResult
    public func annotate(unixTime: Double, duration: Double? = nil, text: String) -> Bool {
        inbox.submit(onset: unixTime, unixTime: true, duration: duration, text: text)
    }

    /// Checks that the stream can be written (regular, a whole number of samples per record, ranges that fit) and
    /// that the file can be created, so a bad path fails the pipeline's `start` rather than the first block.
    public func open(_ descriptor: StreamDescriptor) throws {
        _ = try EDFHeaderBuilder(descriptor: descriptor, options: options, startUnixTime: 0)
        try PosixFile.close(PosixFile.create(path, truncate: false), path: path)
        self.descriptor = descriptor
        wallClockOffset = HostClock.wallClockOffset()
    }

    /// Writes the block's frames, its gaps (annotation + fill) and the waiting annotations.
    public func write(_ block: SampleBlock) throws {
        guard let descriptor else { return }
        if writer == nil {
            guard block.frameCount > 0 else { return }
            writer = try EDFWriter(
                path: path, descriptor: descriptor, startUnixTime: unixTime(of: block, frame: 0), options: options)
        }
        guard let writer else { return }
        drainInbox(into: writer)
        let width = block.layout.width
        var frame = 0
        for positioned in block.gaps {
            let end = min(positioned.beforeFrame, block.frameCount)
            if end > frame {
                try writer.append(
                    rows: UnsafeBufferPointer(rebasing: block.rows[(frame * width)..<(end * width)]), stride: width,
                    valueOffset: FrameLayout.headerLanes, frameCount: end - frame)
                frame = end
            }
            let gap = positioned.gap
            guard gap.missingCount > 0, writer.frameCount > 0 else { continue }  // nothing to hold before data
            writer.annotateGenerated(
                onset: Double(writer.frameCount) / descriptor.nominalRate,
                text: "gap: \(gap.missingCount) samples (\(gap.cause.rawValue))")
            try writer.appendFill(count: gap.missingCount)
        }
        if block.frameCount > frame {
            try writer.append(
                rows: UnsafeBufferPointer(rebasing: block.rows[(frame * width)..<(block.frameCount * width)]),
                stride: width, valueOffset: FrameLayout.headerLanes, frameCount: block.frameCount - frame)
        }
    }

    /// Writes the annotations still waiting and closes the file.
    public func close() throws {
        guard let writer else { return }
        drainInbox(into: writer)
        try writer.close()
    }

    private func unixTime(of block: SampleBlock, frame: Int) -> Double {
        if timeBase == .device, let device = block.deviceTime(ofFrame: frame), device > 978_307_200 { return device }
        return block.timestamp(ofFrame: frame) + wallClockOffset
    }
}
