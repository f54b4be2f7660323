import AxonDSP
import AxonStreams

/// The ``FilterOptions`` design run causally on a live stream: an `SOSFilter` over every channel of each block, in
/// place, ahead of the engine and the sinks (so spectra, the live view's traces and written files all see the
/// filtered samples). A gap record with missing samples restarts the filter, which primes again on the next frame
/// instead of ringing on the jump.
///
/// Threading: as `SampleProcessor`: ``open(_:)`` on the controlling thread, ``process(_:)`` on the pipeline's
/// consumer thread, which it does not block; it allocates nothing per block.
final class SOSFilterStage: SampleProcessor {
    let name = "filter"
    /// The cascade, for the stream's rate.
    let design: SecondOrderSections
    private var filter: SOSFilter?

    /// A stage for a stream at `sampleRate` Hz, or `nil` when `options` ask for no filter.
    ///
    /// - Throws: `ValidationError` when an edge is not below the Nyquist frequency of that rate.
    init?(_ options: FilterOptions, sampleRate: Double) throws {
        guard let design = try options.design(sampleRate: sampleRate) else { return nil }
        self.design = design
    }

    func open(_ descriptor: StreamDescriptor) throws {
        filter = try SOSFilter(design, channelCount: descriptor.channelCount)
    }

    func process(_ block: SampleBlock) {
        guard let filter, let base = block.rows.baseAddress, block.frameCount > 0 else { return }
        let width = block.layout.width
        let values = base + FrameLayout.headerLanes
        var frame = 0
        // Frames before each gap with missing samples, then a restart.
        for positioned in block.gaps where positioned.gap.missingCount > 0 {
            let end = min(positioned.beforeFrame, block.frameCount)
            if end > frame { filter.filter(values + frame * width, frameCount: end - frame, stride: width) }
            frame = max(frame, end)
            filter.reset()
        }
        if block.frameCount > frame {
            filter.filter(values + frame * width, frameCount: block.frameCount - frame, stride: width)
        }
    }

    func close() { filter = nil }
}
