import AxonStreams

/// Publishes a pipeline's stream as an LSL outlet: every frame is pushed with its dejittered time.
///
/// Gap records have no LSL counterpart: a consumer sees them as a jump in the timestamps, as with any LSL source.
/// A stream that came from an LSL inlet is published as `NAME (Axon)` with source id `axon:SOURCE`, never under
/// the original outlet's identity.
///
/// Threading contract: the ``SampleSink`` contract (consumer thread). Pushing goes through liblsl, which copies
/// each sample into its own send buffer.
public final class LSLOutletSink: SampleSink {
    /// `lsl:<stream name>`.
    public let name: String
    private let sourceID: String?
    private let library: LSLLibrary?
    /// The outlet, once opened.
    public private(set) var outlet: LSLOutlet?

    /// Creates a sink; `sourceID` replaces the descriptor's (give a stable one so consumers recover).
    public init(sourceID: String? = nil, library: LSLLibrary? = nil) {
        self.name = "lsl-outlet"
        self.sourceID = sourceID
        self.library = library
    }

    /// Creates a sink that pushes into an outlet made beforehand (so consumers can connect before the stream
    /// starts); the outlet's channel count must match the stream's.
    public init(outlet: LSLOutlet) {
        self.name = "lsl-outlet"
        self.sourceID = nil
        self.library = nil
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

    /// Pushes every frame of the block.
    public func write(_ block: SampleBlock) throws {
        guard let outlet else { return }
        for frame in 0..<block.frameCount {
            try outlet.push(
                UnsafeBufferPointer(block.values(ofFrame: frame)), timestamp: block.timestamp(ofFrame: frame))
        }
    }

    /// Closes the outlet (consumers see the stream end).
    public func close() throws { outlet = nil }
}
