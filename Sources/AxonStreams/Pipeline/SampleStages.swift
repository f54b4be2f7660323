/// Produces the frames of one regular numeric stream on the pipeline's source thread.
///
/// A device adapter, a file replay or a simulator. `run` writes frames until the data ends or
/// `writer.isStopRequested` becomes true, then returns; the pipeline closes the stream after it.
///
/// Threading contract: `run` is called once, on the source thread; the source is handed to that thread, so it
/// must be `Sendable`.
public protocol SampleSource: Sendable {
    /// The stream this source produces.
    var descriptor: StreamDescriptor { get }
    /// Writes frames until the data ends or a stop is requested.
    func run(into writer: FrameWriter) throws
}

/// Transforms or analyses blocks in place on the consumer thread, before the sinks see them (filters, feature
/// extraction, the EEG engine).
///
/// Threading contract: every method is called on the pipeline's consumer thread (``open(_:)`` and ``close()``
/// on the controlling thread before start / after the consumer has ended). `process` must not block, lock or
/// allocate: it runs in the real-time loop.
public protocol SampleProcessor: AnyObject {
    /// A short name for statistics ("notch-50Hz").
    var name: String { get }
    /// Prepares for a stream; allocate everything here.
    func open(_ descriptor: StreamDescriptor) throws
    /// Processes one block in place.
    func process(_ block: SampleBlock)
    /// Releases what `open` acquired.
    func close()
}

/// Consumes a regular numeric stream: files, databases, the network, the console.
///
/// Threading contract: as for ``SampleProcessor``. A sink that throws from `write` is taken out of the
/// pipeline (its error is reported in ``PipelineStatistics/failures``); the other sinks keep receiving
/// everything. A sink that does I/O owns its own buffering.
public protocol SampleSink: AnyObject {
    /// A short name for statistics ("edf:session.bdf").
    var name: String { get }
    /// Prepares for a stream.
    func open(_ descriptor: StreamDescriptor) throws
    /// Receives one block: its frames and the gap records between them, in stream order.
    func write(_ block: SampleBlock) throws
    /// Flushes and releases; called once after the last block.
    func close() throws
}

extension SampleProcessor {
    /// Default: nothing to prepare.
    public func open(_ descriptor: StreamDescriptor) throws {}
    /// Default: nothing to release.
    public func close() {}
}
