// AxonEEG — a whole EEG stream: source → ring → engine → async sequences for applications.

import AxonStreams

/// Runs a source (a headset, a simulated headset, a file replay) through a ``AxonStreams/StreamPipeline`` with an
/// ``EEGProcessor`` and delivers raw samples, spectrum frames and indicators as async sequences.
///
/// Three threads: the source's, the pipeline's consumer (the engine; allocation- and lock-free) and a delivery
/// thread that turns the engine's ring rows into values and yields them. Each sequence buffers its newest
/// ``Options/bufferLimit`` elements, so a slow or absent reader never slows the engine; the engine's own rings
/// count anything the delivery thread could not keep up with.
///
///     let session = try EEGSession(source: replay, configuration: .init())
///     try session.start()
///     session.startBaseline()
///     for await frame in session.spectra { print(frame.channels[1].bands[1].dominantFrequency) }
///
/// Each sequence supports one reader. The sequences finish when the source ends or after ``stop()``.
///
/// Threading: `start`, `stop`, `startBaseline` and `waitUntilFinished` from one controlling thread; ``state``,
/// ``statistics()`` and the sequences from any thread.
public final class EEGSession: Sendable {
    /// How the session runs.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Options: Sendable {
        /// Where times come from.
        public var timeBase: EEGProcessor.TimeBase
        /// Deliver raw samples on ``EEGSession/samples`` (otherwise that sequence finishes empty).
        public var publishSamples: Bool
        /// Elements each sequence keeps for a reader that is behind (the newest are kept).
        public var bufferLimit: Int
        /// Slots of the engine's raw-sample ring (the hand-off to the delivery thread).
        public var sampleCapacity: Int
        /// The pipeline's ring, batching and idle settings.
        public var pipeline: StreamPipeline.Configuration
        /// Creates options.
        public init(
            timeBase: EEGProcessor.TimeBase = .host, publishSamples: Bool = true, bufferLimit: Int = 4096,
            sampleCapacity: Int = 8192, pipeline: StreamPipeline.Configuration = .init()
        ) {
            self.sampleCapacity = sampleCapacity
            self.timeBase = timeBase
            self.publishSamples = publishSamples
            self.bufferLimit = bufferLimit
            self.pipeline = pipeline
        }
    }

    /// What the session is doing.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct State: Sendable, Hashable {
        /// Started and not yet finished (the seed's `hasStarted`).
        public var hasStarted = false
        /// The baseline's progress as of the latest spectrum frame (`collecting` = the seed's
        /// `hasStartedProcessBasicValues`).
        public var baselineState = BaselineState.notStarted
        /// Indicators are being produced (the seed's `hasStartedIndicators`).
        public var hasStartedIndicators = false
        /// Spectrum frames delivered.
        public var spectra = 0
        /// Indicators delivered.
        public var indicators = 0
        /// Raw samples delivered.
        public var samples = 0
        /// A state before any run: nothing started, no baseline.
        public init() {}
    }

    /// Raw samples (the seed's `CB_dataUpdatedWithDictionary`).
    public let samples: AsyncStream<EEGSample>
    /// Spectrum frames, one per hop (`CB_fftDataUpdatedWithDictionary`).
    public let spectra: AsyncStream<SpectrumFrame>
    /// Indicators, one per indicator period after the baseline (`CB_indicatorsStateWithDictionary`).
    public let indicators: AsyncStream<ActivityIndicators>
    /// Every channel's signal quality and the window's artifacts, one per spectrum frame.
    public let quality: AsyncStream<SignalQualityFrame>
    /// The running individual alpha frequency of the clean windows so far, every
    /// ``EEGProcessor/alphaUpdateWindows`` clean windows (about every 10 s).
    public let individualAlpha: AsyncStream<IndividualAlphaUpdate>
    /// The engine's parameters.
    public let configuration: EEGEngine.Configuration
    /// The stream's descriptor.
    public let descriptor: StreamDescriptor

    private let pipeline: StreamPipeline
    private let processor: UncheckedProcessor
    private let continuations: Continuations
    private let mutableState = ThreadLocked(StateTracker())
    private let delivery = DeliveryHandle()

    /// The processor lives on the consumer thread while the pipeline runs; the session touches only its rings
    /// (safe by construction) and `requestBaseline` (the command ring's single producer, the controlling thread).
    private struct UncheckedProcessor: @unchecked Sendable { let value: EEGProcessor }

    /// The delivery thread's handle; touched only by the controlling thread (start, stop, wait).
    private final class DeliveryHandle: @unchecked Sendable { var thread: WorkerThread? }

    private struct Continuations: Sendable {
        let samples: AsyncStream<EEGSample>.Continuation
        let spectra: AsyncStream<SpectrumFrame>.Continuation
        let indicators: AsyncStream<ActivityIndicators>.Continuation
        let quality: AsyncStream<SignalQualityFrame>.Continuation
        let individualAlpha: AsyncStream<IndividualAlphaUpdate>.Continuation
    }

    /// The state and what orders it: spectra and indicators come through separate rings, so an indicator made
    /// before a baseline restart can be delivered after the restart's first frame (and a frame made at the sample
    /// that completed a baseline after that baseline's first indicator). Sample indices say which is newer.
    private struct StateTracker {
        var state = State()
        /// Sample index of the newest frame made while a baseline was collecting.
        var lastCollectingIndex = -1
        /// Sample index of the newest indicator.
        var lastIndicatorIndex = -1

        mutating func note(_ frame: SpectrumFrame) {
            state.spectra += 1
            // A collecting frame no newer than an indicator already seen was made before that baseline completed.
            if frame.baselineState == .collecting, frame.sampleIndex <= lastIndicatorIndex { return }
            state.baselineState = frame.baselineState
            state.hasStartedIndicators = frame.baselineState == .complete
            if frame.baselineState == .collecting { lastCollectingIndex = frame.sampleIndex }
        }

        mutating func note(_ indicator: ActivityIndicators) {
            state.indicators += 1
            lastIndicatorIndex = max(lastIndicatorIndex, indicator.sampleIndex)
            // An indicator older than the newest collecting frame belongs to a baseline since restarted.
            guard indicator.sampleIndex >= lastCollectingIndex else { return }
            state.hasStartedIndicators = true
            state.baselineState = .complete
        }
    }

    /// Builds the session: the engine (FFT planning happens here), the pipeline and the sequences.
    ///
    /// - Parameters:
    ///   - source: the frames; its descriptor's channel count must match `configuration`'s.
    ///   - configuration: the engine's parameters.
    ///   - stages: processors that change the samples before the engine sees them (a filter, artifact subspace
    ///     reconstruction), in order, on the consumer thread; they are the session's from then on. A stage that
    ///     warms up (``WarmingUpStage``: an ``ASRStage`` calibrating on the stream's first seconds) holds the
    ///     baseline until its output is settled (``startBaseline()``).
    ///   - sinks: further sinks on the same stream (files, the console), after the engine: they receive what the
    ///     stages made of the samples.
    ///   - options: threading and delivery options.
    /// - Throws: ``EEGError`` for a bad configuration or a channel-count mismatch.
    public init(
        source: any SampleSource, configuration: EEGEngine.Configuration = .init(),
        stages: [any SampleProcessor] = [], sinks: [any SampleSink] = [], options: Options = .init()
    ) throws(EEGError) {
        guard source.descriptor.channelCount == configuration.channelCount else {
            throw .channelCountMismatch(expected: configuration.channelCount, actual: source.descriptor.channelCount)
        }
        let processor = try EEGProcessor(
            configuration: configuration, timeBase: options.timeBase, publishSamples: options.publishSamples,
            sampleCapacity: options.sampleCapacity)
        processor.warmUpStages = stages.compactMap { $0 as? any WarmingUpStage }
        self.processor = UncheckedProcessor(value: processor)
        self.configuration = configuration
        self.descriptor = source.descriptor
        self.pipeline = StreamPipeline(
            source: source, processors: stages + [processor], sinks: sinks, configuration: options.pipeline)
        let buffering = AsyncStream<EEGSample>.Continuation.BufferingPolicy.bufferingNewest(options.bufferLimit)
        let (samples, sampleContinuation) = AsyncStream.makeStream(of: EEGSample.self, bufferingPolicy: buffering)
        let (spectra, spectrumContinuation) = AsyncStream.makeStream(
            of: SpectrumFrame.self, bufferingPolicy: .bufferingNewest(options.bufferLimit))
        let (indicators, indicatorContinuation) = AsyncStream.makeStream(
            of: ActivityIndicators.self, bufferingPolicy: .bufferingNewest(options.bufferLimit))
        let (quality, qualityContinuation) = AsyncStream.makeStream(
            of: SignalQualityFrame.self, bufferingPolicy: .bufferingNewest(options.bufferLimit))
        let (individualAlpha, alphaContinuation) = AsyncStream.makeStream(
            of: IndividualAlphaUpdate.self, bufferingPolicy: .bufferingNewest(options.bufferLimit))
        self.individualAlpha = individualAlpha
        self.samples = samples
        self.spectra = spectra
        self.indicators = indicators
        self.quality = quality
        self.continuations = Continuations(
            samples: sampleContinuation, spectra: spectrumContinuation, indicators: indicatorContinuation,
            quality: qualityContinuation, individualAlpha: alphaContinuation)
    }

    /// The session's state. Any thread.
    public var state: State { mutableState.withLock { $0.state } }

    /// The pipeline's statistics (frames, gaps, drops, latency). Any thread.
    public func statistics() -> PipelineStatistics { pipeline.statistics() }

    /// Results the engine made but the delivery thread lost because it fell behind (spectra, indicators, samples).
    public var droppedResults: (spectra: Int, indicators: Int, samples: Int) {
        let processor = processor.value
        return (processor.spectra.droppedCount, processor.indicators.droppedCount, processor.samples?.droppedCount ?? 0)
    }

    /// Starts the source, the engine and the delivery thread.
    ///
    /// - Throws: ``AxonStreams/PipelineError`` if the pipeline cannot start.
    public func start() throws(PipelineError) {
        let thread = try WorkerThread(name: "axon-eeg-deliver") { [self] in deliverLoop() }
        delivery.thread = thread
        mutableState.withLock { $0.state.hasStarted = true }
        try pipeline.start()
    }

    /// Starts (or restarts) the baseline with the next sample (the seed's `startProcessAverageValues`); while a
    /// stage is warming up (``WarmingUpStage``), once its output has been settled for a window's samples
    /// (``EEGProcessor/warmUpStages``).
    public func startBaseline() {
        processor.value.requestBaseline()
    }

    /// Stops the source, delivers what is buffered, and finishes the sequences.
    public func stop() {
        pipeline.stop()
        joinDelivery()
    }

    /// Waits until the source has ended and everything has been delivered.
    public func waitUntilFinished() {
        pipeline.waitUntilFinished()
        joinDelivery()
    }

    private func joinDelivery() {
        delivery.thread?.join()
        delivery.thread = nil
        mutableState.withLock { $0.state.hasStarted = false }
    }

    // MARK: - Delivery thread

    private func deliverLoop() {
        let processor = processor.value
        let engine = processor.engine
        let labels = configuration.channelLabels
        let bands = configuration.bands
        let binWidth = engine.grid.binWidth
        var spectrumRow = [Double](repeating: 0, count: engine.spectrumLayout.width)
        var indicatorRow = [Double](repeating: 0, count: engine.indicatorLayout.width)
        var sampleRow = [Double](repeating: 0, count: 3 + configuration.channelCount)
        var alphaRow = [Double](repeating: 0, count: processor.alphaSpectra.width)
        var idle = IdleStrategy()
        while true {
            var moved = false
            while let sampleRing = processor.samples,
                sampleRow.withUnsafeMutableBufferPointer({ sampleRing.pop(into: $0) }) == 1
            {
                moved = true
                let counter = sampleRow[2]
                continuations.samples.yield(
                    EEGSample(
                        sampleIndex: Int(sampleRow[0]), timeframe: sampleRow[1],
                        counter: counter.isNaN ? nil : UInt64(counter), values: Array(sampleRow[3...])))
                mutableState.withLock { $0.state.samples += 1 }
            }
            while spectrumRow.withUnsafeMutableBufferPointer({ processor.spectra.pop(into: $0) }) == 1 {
                moved = true
                let frame = spectrumRow.withUnsafeBufferPointer {
                    SpectrumFrame(
                        SpectrumFrameView(row: $0, layout: engine.spectrumLayout), labels: labels, bands: bands,
                        binWidth: binWidth)
                }
                mutableState.withLock { $0.note(frame) }
                continuations.spectra.yield(frame)
                continuations.quality.yield(SignalQualityFrame(frame))
            }
            while indicatorRow.withUnsafeMutableBufferPointer({ processor.indicators.pop(into: $0) }) == 1 {
                moved = true
                let indicator = indicatorRow.withUnsafeBufferPointer {
                    ActivityIndicators(row: $0, layout: engine.indicatorLayout, labels: labels)
                }
                mutableState.withLock { $0.note(indicator) }
                continuations.indicators.yield(indicator)
            }
            while alphaRow.withUnsafeMutableBufferPointer({ processor.alphaSpectra.pop(into: $0) }) == 1 {
                moved = true
                let estimate = alphaRow.withUnsafeBufferPointer {
                    processor.alpha.estimate(fromSpectra: UnsafeBufferPointer(rebasing: $0[3...]))
                }
                if let estimate {
                    continuations.individualAlpha.yield(
                        IndividualAlphaUpdate(
                            sampleIndex: Int(alphaRow[0]), timeframe: alphaRow[1], windows: Int(alphaRow[2]),
                            estimate: estimate))
                }
            }
            if moved {
                idle.reset()
            } else if processor.spectra.isFinished && processor.indicators.isFinished
                && processor.alphaSpectra.isFinished
                && (processor.samples?.isFinished ?? true)
            {
                break
            } else {
                idle.idle()
            }
        }
        // The run has ended on its own or been stopped: not started any more, before readers see the end.
        mutableState.withLock { $0.state.hasStarted = false }
        continuations.samples.finish()
        continuations.spectra.finish()
        continuations.indicators.finish()
        continuations.quality.finish()
        continuations.individualAlpha.finish()
    }
}
