// AxonEEG — the engine as a pipeline stage: blocks in, spectra / indicators / raw samples out through rings.

import AxonMemory
import AxonStreams

/// Runs an ``EEGEngine`` on a ``AxonStreams/StreamPipeline``'s consumer thread and publishes what it makes into lock-free
/// rings, so another thread can deliver them to applications (``EEGSession`` does) without the real-time loop
/// allocating or locking.
///
/// - ``spectra``: one ``SpectrumFrameLayout`` row per spectrum frame.
/// - ``indicators``: one ``IndicatorLayout`` row per indicator.
/// - ``samples``: when enabled, one row per ingested sample: `[sampleIndex, timeframe ms, device counter or NaN,
///   value per channel…]`.
/// - ``alphaSpectra``: every ``alphaUpdateWindows`` clean windows, the averaged zero-padded spectra of all clean
///   windows so far (``AlphaFrequencyTracker``): `[sampleIndex, timeframe ms, windows, spectra…]`, from which the
///   delivery thread estimates the running individual alpha frequency (the estimate allocates; the loop does not).
/// - ``commands``: the control direction; ``requestBaseline()`` from any one thread.
///
/// Lost samples (the block's gap records): a short loss, up to ``EEGEngine/Configuration/maxBridgedSamples``, is
/// handed to the engine as filled samples on the line between the samples around the gap
/// (``EEGEngine/ingestFilled(_:time:)``), so sample time and the hop schedule stay exact; a longer one restarts the
/// engine's window (``EEGEngine/restartWindow(afterLosing:)``) instead of being synthesised, so the work per gap is
/// bounded whatever the gap's length (a device clock that jumps hours ahead costs one restart). When a ring is full
/// its overflow policy applies (`dropOldest`, counted by the ring): a consumer that falls behind loses the oldest
/// results, never the engine's pace.
///
/// Threading: `process` on the pipeline's consumer thread; ``requestBaseline()`` from one controlling thread;
/// the output rings are popped by one delivery thread. ``close()`` closes the output rings, so their consumer
/// sees `isFinished` once it has drained them.
public final class EEGProcessor: SampleProcessor {
    /// Where the `timeframe` of samples, spectra and indicators comes from.
    public enum TimeBase: Sendable, Hashable {
        /// The device's own time: the frame's device-time lane, which must hold Unix seconds (a headset that stamps
        /// packets in ms since 1970, a file replay). Frames without one fall back to the host clock.
        case device
        /// The host's dejittered arrival time, converted to Unix time.
        case host
    }

    /// `"eeg"`.
    public let name = "eeg"
    /// The engine (use it on the consumer thread only, or before the pipeline starts).
    public let engine: EEGEngine
    /// Spectrum frame rows.
    public let spectra: SPSCRing<Double>
    /// Indicator rows.
    public let indicators: SPSCRing<Double>
    /// Raw sample rows, or `nil` when raw publishing is off.
    public let samples: SPSCRing<Double>?
    /// Averaged spectra for the running individual alpha frequency.
    public let alphaSpectra: SPSCRing<Double>
    /// The clean windows' averaged spectra (read ``AlphaFrequencyTracker/estimate(fromSpectra:)`` off this thread).
    public let alpha: AlphaFrequencyTracker
    /// Clean windows between two ``alphaSpectra`` rows (10: about every 10 s at one spectrum a second).
    public let alphaUpdateWindows = 10
    /// Control commands (1 = start the baseline).
    public let commands: SPSCRing<Double>
    /// Where times come from.
    public let timeBase: TimeBase

    /// Lost samples bridged with filled-in ones so far.
    public private(set) var bridgedSamples = 0
    /// Stages ahead of this one whose warm-up a baseline waits for (``WarmingUpStage``): a requested baseline
    /// starts with the sample after `windowSize − 1` settled ones (``EEGEngine/Configuration/windowSize``), so even
    /// the baseline's first spectrum is made of settled samples only. Empty (the default): a requested baseline
    /// starts with the next sample. Set it before the pipeline starts (``EEGSession`` passes its stages that warm
    /// up); read on the consumer thread.
    public var warmUpStages: [any WarmingUpStage] = []

    /// A baseline was requested and waits for the stages' warm-up.
    private var baselinePending = false
    /// Settled samples (after every stage's warm-up) ingested so far, up to a window's worth.
    private var settledSamples = 0

    private var wallClockOffset = 0.0
    private var lastTime = 0.0
    private let samplePeriod: Double
    private let command = OwnedBuffer<Double>(repeating: 0, count: 1)
    private let fillStart: OwnedBuffer<Double>
    private let fillValues: OwnedBuffer<Double>

    private static let startBaselineCommand = 1.0

    /// Creates the stage and its engine.
    ///
    /// - Parameters:
    ///   - configuration: the engine's parameters.
    ///   - timeBase: where times come from.
    ///   - publishSamples: also publish every raw sample (costs a ring push per sample).
    ///   - resultCapacity: slots of the spectra and indicator rings.
    ///   - sampleCapacity: slots of the raw sample ring.
    /// - Throws: ``EEGError`` from the engine.
    public init(
        configuration: EEGEngine.Configuration, timeBase: TimeBase = .host, publishSamples: Bool = false,
        resultCapacity: Int = 256, sampleCapacity: Int = 8192
    ) throws(EEGError) {
        let engine = try EEGEngine(configuration)
        self.engine = engine
        self.timeBase = timeBase
        self.samplePeriod = 1 / configuration.sampleRate
        self.spectra = SPSCRing(
            capacity: SPSCRing<Double>.powerOfTwo(atLeast: resultCapacity), width: engine.spectrumLayout.width,
            overflow: .dropOldest)
        self.indicators = SPSCRing(
            capacity: SPSCRing<Double>.powerOfTwo(atLeast: resultCapacity), width: engine.indicatorLayout.width,
            overflow: .dropOldest)
        self.samples =
            publishSamples
            ? SPSCRing(
                capacity: SPSCRing<Double>.powerOfTwo(atLeast: sampleCapacity), width: 3 + configuration.channelCount,
                overflow: .dropOldest) : nil
        self.alpha = try AlphaFrequencyTracker(configuration: configuration)
        self.alphaSpectra = SPSCRing(capacity: 4, width: 3 + alpha.spectraWidth, overflow: .dropOldest)
        self.commands = SPSCRing(capacity: 16, width: 1, overflow: .rejectNewest)
        self.fillStart = OwnedBuffer(repeating: 0, count: configuration.channelCount)
        self.fillValues = OwnedBuffer(repeating: 0, count: configuration.channelCount)
    }

    /// Asks the engine to start (or restart) its baseline with the next sample — after the warm-up of the
    /// ``warmUpStages``, if any. From one controlling thread.
    ///
    /// - Returns: `false` if the command ring is full (more than 16 requests not yet seen by the engine).
    @discardableResult
    public func requestBaseline() -> Bool {
        commands.pushSlot { $0[0] = Self.startBaselineCommand }
    }

    /// Checks the stream's channel count against the engine's.
    public func open(_ descriptor: StreamDescriptor) throws {
        guard descriptor.channelCount == engine.configuration.channelCount else {
            throw EEGError.channelCountMismatch(
                expected: engine.configuration.channelCount, actual: descriptor.channelCount)
        }
        wallClockOffset = HostClock.wallClockOffset()
    }

    /// Feeds the block's frames and gaps to the engine and publishes the results.
    public func process(_ block: SampleBlock) {
        while command.withUnsafeMutableBufferPointer({ commands.pop(into: $0) }) == 1 {
            if command[0] == Self.startBaselineCommand { baselinePending = true }
        }
        if baselinePending, warmUpStages.isEmpty {
            baselinePending = false
            engine.startBaseline()
        }
        // The block's frame a pending baseline starts with: after `windowSize − 1` settled frames (the stages'
        // warm-up is the start of the stream).
        var baselineFrame = 0
        if !warmUpStages.isEmpty {
            let warm = warmUpFramesInBlock(block.frameCount)
            if warm > 0 { settledSamples = 0 }
            baselineFrame = warm + max(0, engine.configuration.windowSize - 1 - settledSamples)
            settledSamples = min(settledSamples + block.frameCount - warm, engine.configuration.windowSize)
        }
        let gaps = block.gaps
        var gapIndex = 0
        var frame = 0
        while frame < block.frameCount || gapIndex < gaps.count {
            // Gaps before this frame first, bridged towards it.
            while gapIndex < gaps.count, gaps[gapIndex].beforeFrame <= frame {
                fill(
                    gaps[gapIndex].gap.missingCount,
                    before: frame < block.frameCount ? block.values(ofFrame: frame) : nil)
                gapIndex += 1
            }
            guard frame < block.frameCount else { break }
            if baselinePending, frame >= baselineFrame {
                baselinePending = false
                engine.startBaseline()
            }
            // Then the frames up to the next gap (or the baseline's start), in runs that end where the engine
            // completes something.
            var end = gapIndex < gaps.count ? min(gaps[gapIndex].beforeFrame, block.frameCount) : block.frameCount
            if baselinePending, baselineFrame > frame { end = min(end, baselineFrame) }
            if let samples { publishSamples(block, from: frame, to: end, into: samples) }
            let width = block.layout.width
            while frame < end {
                let start = frame
                let rows = UnsafeBufferPointer(rebasing: block.rows[(start * width)..<(end * width)])
                let (consumed, events) = engine.ingest(
                    rows: rows, stride: width, valueOffset: FrameLayout.headerLanes, frameCount: end - start,
                    time: { time(of: block, frame: start + $0) })
                frame += consumed
                publish(events)
            }
            lastTime = time(of: block, frame: frame - 1)
        }
    }

    /// How many of this block's first frames some stage ahead made during its warm-up. A plain loop: no
    /// closure, no allocation.
    private func warmUpFramesInBlock(_ frameCount: Int) -> Int {
        var warm = 0
        for stage in warmUpStages { warm = max(warm, stage.warmUpFramesInLastBlock) }
        return min(warm, frameCount)
    }

    /// Publishes raw rows for frames `from..<to`; their sample indices continue the engine's count.
    private func publishSamples(_ block: SampleBlock, from: Int, to: Int, into ring: SPSCRing<Double>) {
        for frame in from..<to {
            let index = Double(engine.sampleCount + frame - from)
            let time = time(of: block, frame: frame)
            let counter = block.lane(FrameLayout.counterLane, ofFrame: frame)
            let values = block.values(ofFrame: frame)
            ring.pushSlot { row in
                row[0] = index
                row[1] = time * 1000
                row[2] = counter
                for channel in 0..<values.count { row[3 + channel] = values[channel] }
            }
        }
    }

    /// The stage's state for a checkpoint: the engine's (``EEGEngine/Snapshot``), the bridged count and the time
    /// of the last sample. Allocates: call it between blocks from the consumer thread, not from a real-time loop.
    public func snapshot() -> Snapshot {
        Snapshot(engine: engine.snapshot(), bridgedSamples: bridgedSamples, lastTime: lastTime)
    }

    /// Resumes from `snapshot` (taken from a stage with the same configuration): the next block continues that
    /// stream. Call it on the consumer thread (or before the pipeline starts), after ``open(_:)``.
    ///
    /// - Throws: ``EEGError/snapshotMismatch(_:)`` when the engine's shape differs.
    public func restore(_ snapshot: Snapshot) throws(EEGError) {
        try engine.restore(snapshot.engine)
        bridgedSamples = snapshot.bridgedSamples
        lastTime = snapshot.lastTime
    }

    /// The state ``snapshot()`` returns. Threading: a plain value.
    public struct Snapshot: Sendable, Codable, Hashable {
        /// The engine's state.
        public var engine: EEGEngine.Snapshot
        /// Lost samples bridged so far.
        public var bridgedSamples: Int
        /// Time of the last sample (Unix seconds), where bridged samples continue from.
        public var lastTime: Double
    }

    /// Closes the output rings: their consumer sees `isFinished` once drained.
    public func close() {
        spectra.closeProducer()
        indicators.closeProducer()
        alphaSpectra.closeProducer()
        samples?.closeProducer()
    }

    private func time(of block: SampleBlock, frame: Int) -> Double {
        if timeBase == .device {
            let device = block.lane(FrameLayout.deviceTimeLane, ofFrame: frame)
            if !device.isNaN { return device }
        }
        return block.timestamp(ofFrame: frame) + wallClockOffset
    }

    /// Hands `missing` lost samples to the engine as points on the line from the last sample to `next` (the
    /// first sample after the gap, when the block has it; otherwise the last sample is held), so a short gap adds
    /// no step to the window; restarts the engine's window instead when the loss is too long to bridge.
    private func fill(_ missing: Int, before next: UnsafeMutableBufferPointer<Double>?) {
        guard missing > 0 else { return }
        guard missing <= engine.configuration.maxBridgedSamples else {
            engine.restartWindow(afterLosing: missing)
            lastTime += Double(missing) * samplePeriod
            return
        }
        bridgedSamples += missing
        engine.withLastSample { last in
            for channel in 0..<fillStart.count { fillStart[channel] = last[channel] }
        }
        for step in 1...missing {
            let fraction = Double(step) / Double(missing + 1)
            for channel in 0..<fillValues.count {
                let target = next?[channel] ?? fillStart[channel]
                fillValues[channel] = fillStart[channel] + (target - fillStart[channel]) * fraction
            }
            lastTime += samplePeriod
            let time = lastTime
            publish(fillValues.withUnsafeBufferPointer { engine.ingestFilled($0, time: time) })
        }
    }

    private func publish(_ events: EEGEngine.Events) {
        if events.contains(.spectrum) {
            engine.withSpectrum { view in publish(spectrum: view) }
        }
        if events.contains(.indicators) {
            engine.withIndicatorRow { row in
                _ = indicators.pushSlot { slot in slot.baseAddress!.update(from: row.baseAddress!, count: row.count) }
            }
        }
    }

    /// Publishes the spectrum frame `view` shows and, every few clean windows, the individual alpha frequency.
    private func publish(spectrum view: SpectrumFrameView) {
        let row = view.row
        spectra.pushSlot { slot in slot.baseAddress!.update(from: row.baseAddress!, count: row.count) }
        if alpha.add(view: view, from: engine), alpha.cleanWindows % alphaUpdateWindows == 0 {
            let windows = Double(alpha.cleanWindows)
            alphaSpectra.pushSlot { slot in
                slot[0] = Double(view.sampleIndex)
                slot[1] = view.timeframe
                slot[2] = windows
                alpha.writeSpectra(into: UnsafeMutableBufferPointer(rebasing: slot[3...]))
            }
        }
    }
}
