import AxonEEG
import AxonMemory
import AxonStreams

/// The EEG engine behind a running pipeline, as the measurements drive it: the processor (baseline requested), a
/// pipeline with no sinks, its writer, and a row to pop spectra into.
///
/// Threading contract: the measuring thread writes and pops; the pipeline's consumer thread runs the engine.
final class EngineRig {
    let processor: EEGProcessor
    let pipeline: StreamPipeline
    let writer: FrameWriter
    /// One spectrum row, allocated once.
    let row: OwnedBuffer<Double>
    private var stopped = false

    /// Builds the processor and the pipeline and starts the consumer thread.
    init(_ workload: BenchWorkload, configuration: StreamPipeline.Configuration) throws(BenchError) {
        do {
            processor = try EEGProcessor(configuration: workload.engineConfiguration())
        } catch { throw .setupFailed("EEG processor", cause: error) }
        processor.requestBaseline()
        pipeline = StreamPipeline(
            descriptor: workload.descriptor, processors: [processor], sinks: [], configuration: configuration)
        do {
            writer = try pipeline.makeWriter()
            try pipeline.start()
        } catch { throw .setupFailed("pipeline", cause: error) }
        row = OwnedBuffer(repeating: 0, count: processor.engine.spectrumLayout.width)
    }

    deinit { stop() }

    /// Pops the oldest spectrum into ``row``; whether there was one.
    @inline(__always)
    func popSpectrum() -> Bool {
        row.withUnsafeMutableBufferPointer { processor.spectra.pop(into: $0) == 1 }
    }

    /// Ends the stream and waits for the consumer. Idempotent.
    func stop() {
        guard !stopped else { return }
        stopped = true
        writer.finish()
        pipeline.waitUntilFinished()
    }
}
