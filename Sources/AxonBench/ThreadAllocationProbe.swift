// AxonBench — what the engine's thread allocates while a pipeline runs.

import AxonStreams

/// A sink after the engine that reads the consumer thread's allocation count at its first block and at the end:
/// what the engine's thread (timeline, engine, the sinks before this one) allocated in between. With a CPU given,
/// the consumer thread moves itself there at its first block (before counting).
///
/// Threading: `open`, `write` and `close` run on the pipeline's consumer thread; read ``allocations`` after the
/// pipeline has been joined.
final class ThreadAllocationProbe: SampleSink, @unchecked Sendable {
    let name = "allocation-probe"
    private let cpu: Int?
    private var first: UInt64?
    /// Set on the consumer thread in `close`, read after the pipeline has been joined.
    private(set) var allocations: UInt64 = 0

    init(pinningTo cpu: Int?) { self.cpu = cpu }

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        guard first == nil else { return }
        if let cpu { CPUAffinity.pinCurrentThread(to: [cpu]) }
        first = AllocationCounter.threadCount
    }

    func close() throws { allocations = AllocationCounter.threadCount &- (first ?? AllocationCounter.threadCount) }
}
