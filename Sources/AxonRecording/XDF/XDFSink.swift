import AxonMemory
import AxonStreams

/// Records a pipeline's stream into an ``XDFWriter`` shared with other streams of the session: one Samples chunk
/// per block, each frame with its dejittered timestamp. Given a `clockOffset` (an LSL inlet's time correction),
/// the timestamps are written on the stream's own clock (host time minus the offset) and the offset goes into the
/// file's ClockOffset chunks, as LabRecorder does.
///
/// Gap records have no XDF chunk of their own: the missing samples show as a jump in the timestamps (as in
/// LabRecorder's files), and the EDF sink beside it still annotates them.
///
/// Threading contract: the ``AxonStreams/SampleSink`` contract (consumer thread). Each block becomes one chunk written
/// under the writer's lock (one lock per block, not per sample); the chunk is built in a buffer allocated at `open`.
public final class XDFSink: SampleSink {
    /// `xdf:<path>`.
    public let name: String
    /// The session file.
    public let writer: XDFWriter
    private var streamID: UInt32 = 0
    private var timestamps = OwnedBuffer<Double>(repeating: 0, count: 0)
    private var values = OwnedBuffer<Double>(repeating: 0, count: 0)
    private var scratch: [UInt8] = []
    private let clockOffset: (@Sendable () -> Double)?

    /// Creates a sink writing into `writer`; `clockOffset`, read once per block on the consumer thread, is what to
    /// add to the stream's own clock to get this machine's (nil: the timestamps are this machine's already).
    public init(writer: XDFWriter, clockOffset: (@Sendable () -> Double)? = nil) {
        self.writer = writer
        self.name = "xdf:\(writer.path)"
        self.clockOffset = clockOffset
    }

    /// Adds the stream to the file.
    public func open(_ descriptor: StreamDescriptor) throws {
        streamID = try writer.addStream(descriptor)
        let frames = 1024
        timestamps = OwnedBuffer(repeating: 0, count: frames)
        values = OwnedBuffer(repeating: 0, count: frames * descriptor.channelCount)
        scratch.reserveCapacity(64 + frames * (9 + 8 * descriptor.channelCount))
    }

    /// Writes the block's frames as one Samples chunk.
    public func write(_ block: SampleBlock) throws {
        var start = 0
        let channels = block.layout.channelCount
        let offset = clockOffset?() ?? 0
        while start < block.frameCount {
            let count = min(timestamps.count, block.frameCount - start)
            for frame in 0..<count {
                timestamps[frame] = block.timestamp(ofFrame: start + frame) - offset
                let row = block.values(ofFrame: start + frame)
                for channel in 0..<channels { values[frame * channels + channel] = row[channel] }
            }
            try timestamps.withUnsafeBufferPointer { timestamps in
                try values.withUnsafeBufferPointer { values in
                    try writer.appendSamples(
                        stream: streamID, timestamps: UnsafeBufferPointer(start: timestamps.baseAddress, count: count),
                        values: UnsafeBufferPointer(start: values.baseAddress, count: count * channels),
                        scratch: &scratch, clockOffset: offset)
                }
            }
            start += count
        }
    }

    /// Nothing: the footers are written when the session's writer closes.
    public func close() throws {}
}
