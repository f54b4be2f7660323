import AxonStreams

/// Publishes a pipeline's stream as an LSL outlet: every frame is pushed with its dejittered time.
///
/// Gap records have no counterpart in an LSL sample stream: a consumer of the raw outlet sees them as a jump in the
/// timestamps, as with any LSL source. Given a ``StatusOutlet``, the sink also publishes each gap record there as a
/// line of text (`gap: 37 samples (deviceCounter) from 12.345 s`).
/// A stream that came from an LSL inlet is published as `NAME (Axon)` with source id `axon:SOURCE`, never under
/// the original outlet's identity.
///
/// Threading contract: the ``AxonStreams/SampleSink`` contract (consumer thread). Pushing goes through liblsl, which
/// copies each sample into its own send buffer.
public final class LSLOutletSink: SampleSink {
    /// `lsl:<stream name>`.
    public let name: String
    private let sourceID: String?
    private let library: LSLLibrary?
    private let status: StatusOutlet?
    private var streamStart: Double?
    /// The outlet, once opened.
    public private(set) var outlet: LSLOutlet?

    /// Creates a sink; `sourceID` replaces the descriptor's (give a stable one so consumers recover); gap records
    /// go to `status` when given.
    public init(sourceID: String? = nil, library: LSLLibrary? = nil, status: StatusOutlet? = nil) {
        self.name = "lsl-outlet"
        self.sourceID = sourceID
        self.library = library
        self.status = status
    }

    /// Creates a sink that pushes into an outlet made beforehand (so consumers can connect before the stream
    /// starts); the outlet's channel count must match the stream's. Gap records go to `status` when given.
    public init(outlet: LSLOutlet, status: StatusOutlet? = nil) {
        self.name = "lsl-outlet"
        self.sourceID = nil
        self.library = nil
        self.status = status
        self.outlet = outlet
    }

    /// Creates the outlet for the stream, unless one was given.
    public func open(_ descriptor: StreamDescriptor) throws {
        if let outlet {
            guard outlet.descriptor.channelCount == descriptor.channelCount else {
                throw LSLError.unsupportedStream(
                    "the outlet has \(outlet.descriptor.channelCount) channels, the stream \(descriptor.channelCount)")
            }
            return
        }
        var published = descriptor
        if let sourceID {
            published.sourceID = sourceID
        } else if descriptor.metadata["lsl.channel_format"] != nil {
            // A stream that came in through an LSL inlet goes out under its own name and source id: with the
            // original's, resolvers (Axon's own inlet recovering after an outage included) could take one for the
            // other.
            published.name += " (Axon)"
            published.sourceID = "axon:" + descriptor.sourceID
        }
        outlet = try LSLOutlet(descriptor: published, library: library)
    }

    /// Pushes every frame of the block, and its gap records to the status outlet.
    public func write(_ block: SampleBlock) throws {
        guard let outlet else { return }
        if streamStart == nil, block.frameCount > 0 { streamStart = block.timestamp(ofFrame: 0) }
        if let status, block.gapCount > 0 {
            for positioned in block.gaps {
                try status.publish(positioned.gap, streamStart: streamStart ?? positioned.gap.start)
            }
        }
        for frame in 0..<block.frameCount {
            try outlet.push(
                UnsafeBufferPointer(block.values(ofFrame: frame)), timestamp: block.timestamp(ofFrame: frame))
        }
    }

    /// Lets the last samples leave (``LSLOutlet/finishSending(within:)``), then closes the outlet (consumers see the
    /// stream end).
    public func close() throws {
        outlet?.finishSending()
        outlet = nil
    }
}
