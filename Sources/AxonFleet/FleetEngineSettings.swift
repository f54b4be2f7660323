import AxonEEG
import AxonMemory
import AxonStreams

/// The engine parameters every worker of a fleet uses (they must agree, or a device would change results when it
/// moves to another worker): the Brainiac defaults with the baseline and indicator period adjustable.
///
/// Threading: a plain value, `Sendable`.
public struct FleetEngineSettings: Sendable, Hashable, Codable {
    /// Seconds of baseline from a device's first sample.
    public var baselineSeconds: Double
    /// Seconds between indicators.
    public var indicatorSeconds: Double

    /// Creates settings (defaults: 60 s baseline, an indicator every 10 s).
    public init(baselineSeconds: Double = 60, indicatorSeconds: Double = 10) {
        self.baselineSeconds = baselineSeconds
        self.indicatorSeconds = indicatorSeconds
    }

    /// The engine configuration for a stream: its rate and channel labels, these periods, FFTW plans made with
    /// `.estimate`, the rest default. `.measure` times candidate plans and may pick another algorithm in another
    /// process, whose last-bit differences can flip a borderline peak; with `.estimate` every worker (and the
    /// offline check) computes the same bits, so a device's results do not depend on where it ran.
    public func configuration(for descriptor: StreamDescriptor) -> EEGEngine.Configuration {
        var configuration = EEGEngine.Configuration()
        configuration.sampleRate = descriptor.nominalRate
        configuration.channelLabels = descriptor.channels.map(\.label)
        configuration.baselineDuration = baselineSeconds
        configuration.indicatorPeriod = indicatorSeconds
        configuration.rigor = .estimate
        return configuration
    }
}

/// One device's engine behind a fleet worker: batches in (``FrameBatch`` rows and gaps), spectrum and indicator
/// rows out, through the same ``EEGProcessor`` a local pipeline runs, so a device's results are the same wherever
/// it is processed. Its state is an ``EEGProcessor/Snapshot``.
///
/// Threading: one owner thread at a time (the worker's partition lock hands it over).
final class FleetDeviceEngine {
    enum Output { case spectrum, zones }

    let processor: EEGProcessor
    let descriptor: StreamDescriptor
    private let block: SampleBlock
    private let spectrumRow: OwnedBuffer<Double>
    private let indicatorRow: OwnedBuffer<Double>

    /// A new device's engine (its baseline starts with its first sample), or one resuming from `snapshot`.
    init(descriptor: StreamDescriptor, settings: FleetEngineSettings, snapshot: EEGProcessor.Snapshot? = nil) throws {
        // A batch of at most 4096 frames makes at most 17 spectra at the default hop; the outputs are drained after
        // each batch, so 32 slots suffice (the default 256 would hold ≈ 1.2 MB per device).
        processor = try EEGProcessor(
            configuration: settings.configuration(for: descriptor), timeBase: .device, resultCapacity: 32)
        try processor.open(descriptor)
        // A resumed engine carries its baseline in the snapshot: asking for one would start it over.
        if let snapshot { try processor.restore(snapshot) } else { processor.requestBaseline() }
        self.descriptor = descriptor
        block = SampleBlock(layout: FrameLayout(channelCount: descriptor.channelCount), capacity: FrameBatch.maxFrames)
        spectrumRow = OwnedBuffer(repeating: 0, count: processor.engine.spectrumLayout.width)
        indicatorRow = OwnedBuffer(repeating: 0, count: processor.engine.indicatorLayout.width)
    }

    /// Feeds frames (rows of `time, counter, values…`) with the gaps before them, calling `output` with every row
    /// the engine makes, in order.
    func feed(
        rows: [Double], gaps: [FrameBatch.Gap], extraGapBeforeFirst: GapRecord? = nil,
        output: (Output, UnsafeBufferPointer<Double>) -> Void
    ) {
        let channels = descriptor.channelCount
        let width = 2 + channels
        let frames = rows.count / width
        block.clear()
        if let extraGapBeforeFirst, extraGapBeforeFirst.missingCount > 0 {
            block.addGap(extraGapBeforeFirst, beforeFrame: 0)
        }
        for gap in gaps where gap.missing > 0 {
            block.addGap(GapRecord(cause: gap.cause, missingCount: gap.missing, start: 0, end: 0), beforeFrame: gap.beforeFrame)
        }
        let laneWidth = block.layout.width
        for frame in 0..<frames {
            let base = frame * laneWidth
            block.rows[base + FrameLayout.sequenceLane] = Double(frame)
            block.rows[base + FrameLayout.arrivalLane] = rows[frame * width]
            block.rows[base + FrameLayout.deviceTimeLane] = rows[frame * width]
            block.rows[base + FrameLayout.counterLane] = rows[frame * width + 1]
            block.rows[base + FrameLayout.timestampLane] = rows[frame * width]
            for channel in 0..<channels {
                block.rows[base + FrameLayout.headerLanes + channel] = rows[frame * width + 2 + channel]
            }
        }
        block.setFrameCount(frames)
        processor.process(block)
        spectrumRow.withUnsafeMutableBufferPointer { row in
            while processor.spectra.pop(into: row) == 1 { output(.spectrum, UnsafeBufferPointer(row)) }
        }
        indicatorRow.withUnsafeMutableBufferPointer { row in
            while processor.indicators.pop(into: row) == 1 { output(.zones, UnsafeBufferPointer(row)) }
        }
    }
}
