import AxonDSP
import AxonRecording
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

    /// `recording`'s main stream as this stage will pass it on (filtered causally, each stretch between gaps from
    /// a fresh start), for choosing a file's ranges before the stream runs: a high-pass moves the samples far from
    /// the offset the unfiltered data sits at.
    func filteredForPlanning(_ recording: Recording) throws -> Recording {
        let width = recording.channelCount
        let planner = try SOSFilter(design, channelCount: width)
        var values = recording.values
        values.withUnsafeMutableBufferPointer { buffer in
            for stretch in recording.stretchesBetweenGaps {
                planner.reset()
                planner.filter(
                    buffer.baseAddress! + stretch.lowerBound * width, frameCount: stretch.count, stride: width)
            }
        }
        return recording.withValues(values)
    }
}
