// AxonEEG — the Brainiac chain: sliding windows → FFTW spectra → dominant frequencies → baseline → zones.

import AxonDSP
import AxonMemory

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The EEG engine: feeds on multi-channel samples one frame at a time and, every ``Configuration/hop`` samples,
/// analyses the last ``Configuration/windowSize`` samples of every channel into a spectrum frame; after
/// ``startBaseline()`` it learns each channel's band powers for ``Configuration/baselineDuration`` and then makes
/// an indicator every ``Configuration/indicatorPeriod``.
///
/// Timing is counted in samples, never on the wall clock: with sample indices from 0, the first spectrum ends at
/// sample `windowSize − 1` and the next ones every `hop` samples. A baseline requested before sample `s` collects
/// the spectra ending in `[s, s + baselineSamples)`, completes at sample `s + baselineSamples − 1` with the
/// first indicator, and indicators follow every `indicatorSamples` samples. Each indicator averages the log-odds of
/// each band's share of the reference band's power over the spectra ending in its period (the last
/// `indicatorSamples` samples) and compares them with the baseline (``ZoneClassifier``, `docs/activity-zones.md`).
///
/// Each spectrum frame (``SpectrumFrameLayout``, read through ``withSpectrum(_:)``) holds per channel the sub-bin
/// dominant frequency of every band — its strongest local maximum inside the band standing
/// ``Configuration/peakProminence`` times above the window's 1/f background, or no peak
/// (``AxonDSP/FrequencyGrid/localPeak(of:bins:in:above:)``, ``AxonDSP/PowerLawBackground``) — the power of its bin, the
/// band power, the band's share of the reference band's power, and the whole one-sided power spectrum (a sine of
/// amplitude A reads A²/2 at its bin; ``AxonDSP/SpectrumScaling/power``).
///
/// Each spectrum frame also carries each channel's signal quality (railed, flat, mains, muscle, the eyes' slow
/// swings; ``SignalQualityThresholds``) and the window's artifacts. What enters the baseline and the indicators
/// is only what can be trusted: a frame whose window holds filled-in samples, or (with
/// ``SignalQualityThresholds/excludeArtifacts``) a blink or muscle artifact, is left out as a whole
/// (``excludedFrames``); a channel whose window is railed, flat or failed is left out for that frame; a channel
/// left out of the whole baseline is left out of the indicators (its zone is `nil`); an indicator period with no
/// usable frame makes no indicator (``withheldIndicators``). Each band's dominant frequency is a local maximum
/// inside the band or no peak at all (NaN in the row, `nil` in the views).
///
/// Lost samples: a short loss (up to ``Configuration/maxBridgedSamples``) is bridged with
/// ``ingestFilled(_:time:)``, once per missing sample with an estimate of it (or none, to repeat the last one), so
/// sample time and the hop schedule stay exact; frames whose window holds filled samples say how many
/// (``SpectrumFrameView/filledSamples``). A longer loss calls ``restartWindow(afterLosing:)``: sample time moves on
/// by the loss in O(1), the window history starts over, and the next spectrum waits for a full window of real
/// samples.
///
/// Cost: ``init(_:)`` plans the FFT and allocates everything (``AxonMemory/OwnedBuffer``s, freed with the engine).
/// ``ingest(_:time:)-(UnsafeBufferPointer<Double>,_)`` allocates nothing and takes no lock: O(channels) per sample,
/// plus one analysis of O(channels · N log N) per hop.
///
/// Threading: a single-owner type; every method on one thread (the stream's processor thread). Not `Sendable`.
///
///     let engine = try EEGEngine(.init())             // Brainiac defaults
///     engine.startBaseline()
///     let events = engine.ingest(frame, time: unixSeconds)
///     if events.contains(.spectrum) { print(engine.withSpectrum { $0.dominantFrequency(channel: 1, band: 1) }) }
///     if events.contains(.indicators) { print(engine.indicators.zone) }
public final class EEGEngine {
    /// What an ``EEGEngine/ingest(_:time:)-(UnsafeBufferPointer<Double>,_)`` call produced.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Events: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Creates events from raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A new spectrum frame is in ``EEGEngine/withSpectrum(_:)``.
        public static let spectrum = Events(rawValue: 1)
        /// The baseline just completed (``EEGEngine/hasStartedIndicators`` became true).
        public static let baselineCompleted = Events(rawValue: 2)
        /// A new indicator is in ``EEGEngine/indicators``.
        public static let indicators = Events(rawValue: 4)
    }

    /// The configuration.
    public let configuration: Configuration
    /// The layout of the spectrum frame's row (``withSpectrum(_:)``).
    public let spectrumLayout: SpectrumFrameLayout
    /// The layout of the indicator's row (``withIndicatorRow(_:)``).
    public let indicatorLayout: IndicatorLayout
    /// The frequency of each spectrum bin.
    public let grid: FrequencyGrid
    /// The zone classifier.
    public let classifier: ZoneClassifier

    private let analyzer: SpectrumAnalyzer
    private let channelCount: Int
    private let windowSize: Int
    private let bandCount: Int
    private let bandBins: [ClosedRange<Int>]
    private let referenceBins: ClosedRange<Int>
    /// The window's 1/f background a band's peak must stand out of (`nil` with a prominence of 0, or when the grid is
    /// too coarse to fit it).
    private let background: PowerLawBackground?
    private let equivalentNoiseBandwidth: Double

    /// Channel-major circular history: `channel * windowSize + position`.
    private let history: OwnedBuffer<Double>
    /// 1 where the history slot holds a filled-in sample.
    private let filledFlags: OwnedBuffer<UInt8>
    private var filledInWindow = 0
    /// The next history position to write, which is also the oldest sample once the window is full.
    private var writePosition = 0
    @usableFromInline let lastValues: OwnedBuffer<Double>
    @usableFromInline let frameRow: OwnedBuffer<Double>
    @usableFromInline let indicatorRow: OwnedBuffer<Double>
    private let meter: SignalQualityMeter
    private let measuresQuality: Bool
    /// Per channel: baseline frames and period frames it contributed.
    private let baselineCounts: OwnedBuffer<Int>
    private let periodCounts: OwnedBuffer<Int>
    private var periodExcluded = 0

    /// Samples ingested so far; the next sample's index.
    public private(set) var sampleCount = 0
    /// Spectrum frames made so far.
    public private(set) var spectrumCount = 0
    /// Indicators made so far.
    public private(set) var indicatorCount = 0
    /// Windows whose analysis threw (``AxonDSP/DSPError``); their values are NaN and their channels unusable.
    public private(set) var analysisFailures = 0
    /// Spectrum frames left out of the baseline and the indicators as a whole (filled-in samples or artifacts).
    public private(set) var excludedFrames = 0
    /// Spectrum frames with an eye or muscle artifact (whether or not artifacts are excluded).
    public private(set) var contaminatedFrames = 0
    /// (Frame, channel) pairs left out because the channel's window was railed, flat or failed.
    public private(set) var unusableChannelWindows = 0
    /// Times the window history restarted after a loss too long to bridge.
    public private(set) var windowRestarts = 0
    /// Indicator periods that made no indicator: no usable frame, or they passed inside an outage.
    public private(set) var withheldIndicators = 0
    private var nextSpectrumAt: Int

    /// Where the baseline stands.
    public private(set) var baselineState = BaselineState.notStarted
    /// Spectra the current baseline has collected.
    public private(set) var baselineFrames = 0
    private var baselineRequested = false
    private var baselineStart = 0
    private var baselineLast = 0
    /// Welford accumulators of the log-odds of each band's share, per channel and band (`channel * bandCount + band`).
    private let baselineMean: OwnedBuffer<Double>
    private let baselineM2: OwnedBuffer<Double>
    /// Sums of the log-odds of each band's share over the current indicator period.
    private let periodSum: OwnedBuffer<Double>
    private var periodFrames = 0
    private var periodStart = Int.max
    private var nextIndicatorAt = Int.max

    /// Validates the configuration, plans the FFT and allocates every buffer the engine will use.
    ///
    /// - Throws: ``EEGError`` for a configuration that cannot work (see ``Configuration/validate()``) or an FFT
    ///   that cannot be planned.
    /// - Complexity: one FFTW planning run (≈60 ms with `.measure`; takes the process-wide planner lock).
    public init(_ configuration: Configuration) throws(EEGError) {
        try configuration.validate()
        let analyzer: SpectrumAnalyzer
        let bandBins: [ClosedRange<Int>]
        let referenceBins: ClosedRange<Int>
        do {
            analyzer = try SpectrumAnalyzer(
                .init(sampleRate: configuration.sampleRate, fftSize: configuration.windowSize,
                      window: configuration.window, detrend: configuration.detrend, scaling: .power,
                      rigor: configuration.rigor))
            bandBins = try configuration.bands.map { (band) throws(DSPError) in try analyzer.grid.bins(in: band) }
            referenceBins = try analyzer.grid.bins(in: configuration.referenceBand)
        } catch { throw .dsp(error) }
        let channels = configuration.channelCount
        let bands = configuration.bands.count
        self.configuration = configuration
        self.analyzer = analyzer
        self.grid = analyzer.grid
        self.classifier = ZoneClassifier(thresholds: configuration.classifier)
        self.channelCount = channels
        self.windowSize = configuration.windowSize
        self.bandCount = bands
        self.bandBins = bandBins
        self.referenceBins = referenceBins
        self.background = configuration.peakProminence > 0
            ? try? PowerLawBackground(grid: analyzer.grid, prominence: configuration.peakProminence) : nil
        self.equivalentNoiseBandwidth = analyzer.window.equivalentNoiseBandwidth
        self.spectrumLayout = SpectrumFrameLayout(channelCount: channels, bandCount: bands, binCount: grid.binCount)
        self.indicatorLayout = IndicatorLayout(channelCount: channels, bandCount: bands)
        self.history = OwnedBuffer(repeating: 0, count: channels * configuration.windowSize)
        self.filledFlags = OwnedBuffer(repeating: 0, count: configuration.windowSize)
        self.lastValues = OwnedBuffer(repeating: 0, count: channels)
        self.frameRow = OwnedBuffer(repeating: 0, count: spectrumLayout.width)
        self.indicatorRow = OwnedBuffer(repeating: 0, count: indicatorLayout.width)
        self.baselineMean = OwnedBuffer(repeating: 0, count: channels * bands)
        self.baselineM2 = OwnedBuffer(repeating: 0, count: channels * bands)
        self.periodSum = OwnedBuffer(repeating: 0, count: channels * bands)
        self.meter = SignalQualityMeter(
            thresholds: configuration.quality, labels: configuration.channelLabels, grid: analyzer.grid,
            windowSize: configuration.windowSize, hop: configuration.hop, equivalentNoiseBandwidth: analyzer.window.equivalentNoiseBandwidth)
        self.measuresQuality = configuration.measuresSignalQuality
        self.baselineCounts = OwnedBuffer(repeating: 0, count: channels)
        self.periodCounts = OwnedBuffer(repeating: 0, count: channels)
        self.nextSpectrumAt = configuration.windowSize - 1
    }

    // MARK: - State

    /// Calls `body` with the latest spectrum frame (all zeros before the first). The view is valid only inside
    /// `body`; copy it (``SpectrumFrame/init(_:labels:bands:binWidth:)``) to keep it.
    ///
    ///     let alpha = engine.withSpectrum { $0.dominantFrequency(channel: 1, band: 1) }
    ///
    /// - Complexity: O(1); no allocation (inlinable: the closure's context stays on the caller's stack).
    @inlinable
    public func withSpectrum<Result, Failure: Error>(
        _ body: (SpectrumFrameView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let layout = spectrumLayout
        return try frameRow.withUnsafeBufferPointer { (row) throws(Failure) in
            try body(SpectrumFrameView(unchecked: row, layout: layout))
        }
    }

    /// Calls `body` with the latest indicator's row (``IndicatorLayout``; all zeros before the first). The pointer is
    /// valid only inside `body`.
    ///
    /// - Complexity: O(1); no allocation.
    @inlinable
    public func withIndicatorRow<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<Double>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try indicatorRow.withUnsafeBufferPointer(body)
    }

    /// The latest indicator's overall zone and percent.
    public var indicators: ZoneClassifier.Level {
        ZoneClassifier.Level(
            zone: ActivityZone(rawValue: Int(indicatorRow[indicatorLayout.lane(.zone)])) ?? .normalActivity,
            percent: indicatorRow[indicatorLayout.lane(.percent)])
    }

    /// Whether indicators are being produced (the seed's `hasStartedIndicators`).
    public var hasStartedIndicators: Bool { baselineState == .complete }

    /// Starts (or restarts) the baseline with the next ingested sample (the seed's `startProcessAverageValues`).
    /// Indicators stop until the new baseline completes.
    public func startBaseline() {
        baselineRequested = true
    }

    // MARK: - Ingestion

    /// Ingests one frame: one value per channel, taken at `time` (Unix seconds; it stamps the frames and
    /// indicators that end at this sample).
    ///
    /// - Returns: what this sample completed.
    /// - Complexity: O(channels); at a hop, one analysis per channel. No allocation, no lock.
    @discardableResult
    public func ingest(_ values: UnsafeBufferPointer<Double>, time: Double) -> Events {
        precondition(values.count == channelCount, "a frame needs one value per channel")
        for channel in 0..<channelCount { lastValues[channel] = values[channel] }
        return append(filled: false, time: time)
    }

    /// Ingests one frame from an array; see ``ingest(_:time:)-(UnsafeBufferPointer<Double>,_)``.
    @discardableResult
    public func ingest(_ values: [Double], time: Double) -> Events {
        values.withUnsafeBufferPointer { ingest($0, time: time) }
    }

    /// Ingests a stand-in for one lost sample, marked as filled: `values` (the caller's estimate, for example a
    /// line between the samples around the gap), or each channel's last value again when `values` is `nil`.
    ///
    /// - Complexity: as ``ingest(_:time:)-(UnsafeBufferPointer<Double>,_)``.
    @discardableResult
    public func ingestFilled(_ values: UnsafeBufferPointer<Double>? = nil, time: Double) -> Events {
        if let values {
            precondition(values.count == channelCount, "a frame needs one value per channel")
            for channel in 0..<channelCount { lastValues[channel] = values[channel] }
        }
        return append(filled: true, time: time)
    }

    /// Calls `body` with the values of the last ingested sample, one per channel (zeros before the first). The pointer
    /// is valid only inside `body`.
    ///
    /// - Complexity: O(1); no allocation.
    @inlinable
    public func withLastSample<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<Double>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try lastValues.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the samples of `channel`'s current window in time order, as two consecutive pieces (the
    /// older and the newer part of the circular history): right after ``ingest(_:time:)-(UnsafeBufferPointer<Double>,_)`` reports
    /// ``Events/spectrum``, the window that spectrum was made from. Valid only inside `body`.
    ///
    /// - Precondition: `channel` is in `0..<channelCount`.
    /// - Complexity: O(1); no allocation.
    public func withCurrentWindow<Result>(
        channel: Int, _ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>) throws -> Result
    ) rethrows -> Result {
        precondition((0..<channelCount).contains(channel))
        let oldest = writePosition
        let windowSize = windowSize
        return try history.withUnsafeBufferPointer { history in
            let base = history.baseAddress! + channel * windowSize
            return try body(
                UnsafeBufferPointer(start: base + oldest, count: windowSize - oldest),
                UnsafeBufferPointer(start: base, count: oldest))
        }
    }

    /// Accounts for `missing` lost samples without synthesising them: sample time moves on by `missing`, the window
    /// history starts over (the next spectrum ends a full window of real samples later), and indicator periods that
    /// ended inside the loss make no indicator (``withheldIndicators``). A baseline in progress keeps what it had.
    ///
    /// - Complexity: O(window) to clear the filled-sample flags, whatever `missing` is; no allocation.
    public func restartWindow(afterLosing missing: Int) {
        guard missing > 0 else { return }
        if baselineRequested { beginBaseline() }
        windowRestarts += 1
        sampleCount += missing
        filledFlags.update(repeating: 0)
        filledInWindow = 0
        nextSpectrumAt = sampleCount + windowSize - 1
        if nextIndicatorAt != .max, nextIndicatorAt < sampleCount {
            let period = configuration.indicatorSamples
            let passed = (sampleCount - nextIndicatorAt + period - 1) / period
            withheldIndicators += passed
            nextIndicatorAt += passed * period
            clearPeriod(startingAt: nextIndicatorAt + 1 - period)
        }
    }

    /// Ingests frames straight from a block of samples until the first frame that completes something, so the
    /// caller can publish it before going on. The block is frame-major rows (a pipeline block: `channelStride` 1) or
    /// channel-major (a caller's array: `stride` 1, `channelStride` the distance between channels): either is read
    /// in place, with no transposing copy.
    ///
    /// - Parameters:
    ///   - rows: the samples; frame `i`'s channel `c` is at `rows[i * stride + valueOffset + c * channelStride]`.
    ///   - stride: doubles from one frame to the next.
    ///   - valueOffset: index of channel 0 of frame 0.
    ///   - channelStride: doubles from one channel to the next within a frame (1: adjacent).
    ///   - frameCount: frames available in `rows`.
    ///   - time: the Unix time (seconds) of frame `i`; called only for the last frame consumed.
    /// - Returns: how many frames were consumed (at least 1 when `frameCount > 0`) and the events of the last.
    /// - Complexity: O(frames × channels) copying, plus one analysis if a hop ends; no allocation, no lock.
    public func ingest(
        rows: UnsafeBufferPointer<Double>, stride: Int, valueOffset: Int, channelStride: Int = 1, frameCount: Int,
        time: (Int) -> Double
    ) -> (consumed: Int, events: Events) {
        guard frameCount > 0 else { return (0, []) }
        precondition(
            stride > 0 && channelStride > 0 && valueOffset >= 0
                && rows.count > (frameCount - 1) * stride + valueOffset + (channelCount - 1) * channelStride)
        if baselineRequested { beginBaseline() }
        // Frames strictly before the next boundary cannot complete anything: copy them in a tight loop.
        var boundary = min(nextSpectrumAt, nextIndicatorAt)
        if baselineState == .collecting { boundary = min(boundary, max(baselineLast, sampleCount)) }
        let quiet = min(frameCount - 1, boundary - sampleCount)
        copyQuiet(rows.baseAddress! + valueOffset, stride: stride, channelStride: channelStride, frames: quiet)
        sampleCount += quiet
        let last = quiet * stride + valueOffset
        for channel in 0..<channelCount { lastValues[channel] = rows[last + channel * channelStride] }
        return (quiet + 1, append(filled: false, time: time(quiet)))
    }

    /// Copies `frames` frames into the history, channel by channel in runs up to the ring's wrap: each channel's
    /// history is written contiguously, the source read with a stride (1 for a channel-major block: a plain copy).
    /// The filled-sample flags are touched only when the window holds any (a stream without losses never does).
    @inline(__always)
    private func copyQuiet(_ source: UnsafePointer<Double>, stride: Int, channelStride: Int, frames: Int) {
        var copied = 0
        var position = writePosition
        let (windowSize, channelCount) = (windowSize, channelCount)
        while copied < frames {
            let run = min(frames - copied, windowSize - position)
            history.withUnsafeMutableBufferPointer { history in
                for channel in 0..<channelCount {
                    let destination = history.baseAddress! + channel * windowSize + position
                    var from = source + copied * stride + channel * channelStride
                    for i in 0..<run {
                        destination[i] = from.pointee
                        from += stride
                    }
                }
            }
            if filledInWindow > 0 {
                for slot in position..<(position + run) {
                    filledInWindow -= Int(filledFlags[slot])
                    filledFlags[slot] = 0
                }
            }
            copied += run
            position = position + run == windowSize ? 0 : position + run
        }
        writePosition = position
    }

    private func append(filled: Bool, time: Double) -> Events {
        if baselineRequested { beginBaseline() }
        let position = writePosition
        for channel in 0..<channelCount { history[channel * windowSize + position] = lastValues[channel] }
        filledInWindow += (filled ? 1 : 0) - Int(filledFlags[position])
        filledFlags[position] = filled ? 1 : 0
        writePosition = position + 1 == windowSize ? 0 : position + 1

        let index = sampleCount
        sampleCount += 1
        var events: Events = []
        if index == nextSpectrumAt {
            nextSpectrumAt += configuration.hop
            analyzeWindow(endingAt: index, time: time)
            accumulate(endingAt: index)
            events.insert(.spectrum)
        }
        if baselineState == .collecting, index >= baselineLast, baselineFrames > 0 {
            completeBaseline()
            nextIndicatorAt = index
            events.insert(.baselineCompleted)
        }
        if index == nextIndicatorAt {
            if makeIndicator(at: index, time: time) { events.insert(.indicators) } else { withheldIndicators += 1 }
            nextIndicatorAt += configuration.indicatorSamples
            clearPeriod(startingAt: index + 1)
        }
        return events
    }

    // MARK: - Spectra

    private func analyzeWindow(endingAt index: Int, time: Double) {
        let layout = spectrumLayout
        frameRow[layout.lane(.counter)] = Double(spectrumCount)
        frameRow[layout.lane(.sampleIndex)] = Double(index)
        frameRow[layout.lane(.timeframe)] = time * 1000
        frameRow[layout.lane(.filledSamples)] = Double(filledInWindow)
        spectrumCount += 1
        let oldest = writePosition
        let newer = windowSize - oldest
        var artifacts = ArtifactKinds()
        history.withUnsafeBufferPointer { history in
            frameRow.withUnsafeMutableBufferPointer { row in
                for channel in 0..<channelCount {
                    let base = history.baseAddress! + channel * windowSize
                    let spectrumStart = layout.spectrumLane(channel: channel)
                    let destination = UnsafeMutableBufferPointer(
                        rebasing: row[spectrumStart..<(spectrumStart + grid.binCount)])
                    // The circular history in time order: from the oldest sample to the end, then the wrapped
                    // start.
                    let tail = UnsafeBufferPointer(start: base + oldest, count: newer)
                    let head = UnsafeBufferPointer(start: base, count: oldest)
                    do {
                        try analyzer.analyze(tail, head, into: destination)
                    } catch {
                        analysisFailures += 1
                        destination.update(repeating: .nan)
                    }
                    let spectrum = UnsafeBufferPointer(destination)
                    measureBands(channel: channel, spectrum: spectrum)
                    guard measuresQuality else {
                        let reference = frameRow[layout.referencePowerLane(channel: channel)]
                        frameRow[layout.qualityLane(channel: channel, .railedFraction)] = .nan
                        frameRow[layout.qualityLane(channel: channel, .power)] = .nan
                        frameRow[layout.qualityLane(channel: channel, .lineShare)] = .nan
                        frameRow[layout.qualityLane(channel: channel, .muscleShare)] = .nan
                        frameRow[layout.qualityLane(channel: channel, .slowSwing)] = .nan
                        frameRow[layout.qualityLane(channel: channel, .usable)] =
                            SignalQualityMeter.hasPower(reference) ? 1 : 0
                        continue
                    }
                    let quality = meter.measure(tail, head, spectrum: spectrum)
                    let usable = meter.isUsable(
                        quality, referencePower: frameRow[layout.referencePowerLane(channel: channel)])
                    frameRow[layout.qualityLane(channel: channel, .railedFraction)] = quality.railedFraction
                    frameRow[layout.qualityLane(channel: channel, .power)] = quality.power
                    frameRow[layout.qualityLane(channel: channel, .lineShare)] = quality.lineShare
                    frameRow[layout.qualityLane(channel: channel, .muscleShare)] = quality.muscleShare
                    frameRow[layout.qualityLane(channel: channel, .slowSwing)] = quality.slowSwing
                    frameRow[layout.qualityLane(channel: channel, .usable)] = usable ? 1 : 0
                    // Artifacts are judged on usable channels only: a railed channel's swing says nothing about the
                    // eyes.
                    guard usable else { continue }
                    if meter.isEyeChannel[channel] {
                        // Judged against the channel's history before this window joins it.
                        if quality.slowSwing > meter.blinkLimit(channel: channel) { artifacts.insert(.eyes) }
                        meter.remember(swing: quality.slowSwing, channel: channel)
                    }
                    if quality.muscleShare > meter.muscleShareLimit { artifacts.insert(.muscle) }
                }
            }
        }
        if !artifacts.isEmpty { contaminatedFrames += 1 }
        let excluded = filledInWindow > 0 || (meter.excludesArtifacts && !artifacts.isEmpty)
        frameRow[layout.lane(.artifacts)] = Double(artifacts.rawValue)
        frameRow[layout.lane(.excluded)] = excluded ? 1 : 0
        frameRow[layout.lane(.baselineState)] = Double(baselineState.rawValue)
        frameRow[layout.lane(.baselineFrames)] = Double(baselineFrames)
    }

    private func measureBands(channel: Int, spectrum: UnsafeBufferPointer<Double>) {
        let layout = spectrumLayout
        let reference = sum(spectrum, referenceBins) / equivalentNoiseBandwidth
        frameRow[layout.referencePowerLane(channel: channel)] = reference
        let fit = background?.fit(spectrum)
        for band in 0..<bandCount {
            let power = sum(spectrum, bandBins[band]) / equivalentNoiseBandwidth
            frameRow[layout.bandPowerLane(channel: channel, band: band)] = power
            frameRow[layout.relativePowerLane(channel: channel, band: band)] = reference > 0 ? power / reference : 0
            let peak = grid.localPeak(
                of: spectrum, bins: bandBins[band], in: configuration.bands[band], above: fit)
            frameRow[layout.dominantLane(channel: channel, band: band)] = peak?.frequency ?? .nan
            frameRow[layout.peakPowerLane(channel: channel, band: band)] = peak?.power ?? .nan
        }
    }

    private func sum(_ spectrum: UnsafeBufferPointer<Double>, _ bins: ClosedRange<Int>) -> Double {
        var total = 0.0
        for k in bins { total += spectrum[k] }
        return total
    }

    // MARK: - Baseline and indicators

    private func beginBaseline() {
        baselineRequested = false
        baselineState = .collecting
        baselineFrames = 0
        baselineStart = sampleCount
        baselineLast = sampleCount + configuration.baselineSamples - 1
        baselineMean.update(repeating: 0)
        baselineM2.update(repeating: 0)
        baselineCounts.update(repeating: 0)
        // The first indicator covers the baseline's last period.
        clearPeriod(startingAt: max(baselineStart, baselineLast + 1 - configuration.indicatorSamples))
        nextIndicatorAt = Int.max
    }

    /// Empties the indicator period's sums; the next period collects the spectra ending from `start` on.
    private func clearPeriod(startingAt start: Int) {
        periodSum.update(repeating: 0)
        periodCounts.update(repeating: 0)
        periodFrames = 0
        periodExcluded = 0
        periodStart = start
    }

    /// The log-odds of a band's share of the reference band, `ln(r / (1 − r))` with `r` its relative power:
    /// shares, not absolute powers, because a change of electrode contact or overall amplitude moves every band
    /// alike and leaves the shares, and so the zones, alone; log-odds rather than log share because a share
    /// saturates at 1 while its log-odds keeps growing with the rhythm. Clamped so a silent or all-in-one-band
    /// channel gives a finite value.
    @inline(__always) private func logOdds(channel: Int, band: Int) -> Double {
        let share = frameRow[spectrumLayout.relativePowerLane(channel: channel, band: band)]
        let clamped = min(max(share.isNaN ? 0 : share, 1e-9), 1 - 1e-9)
        return log(clamped / (1 - clamped))
    }

    private func accumulate(endingAt index: Int) {
        let layout = spectrumLayout
        let excluded = frameRow[layout.lane(.excluded)] != 0
        if excluded { excludedFrames += 1 }
        let collecting = baselineState == .collecting && index >= baselineStart
        let inPeriod = baselineState != .notStarted && index >= periodStart
        guard collecting || inPeriod else { return }
        guard !excluded else {
            if inPeriod { periodExcluded += 1 }
            return
        }
        var contributed = false
        for channel in 0..<channelCount {
            guard frameRow[layout.qualityLane(channel: channel, .usable)] != 0 else {
                unusableChannelWindows += 1
                continue
            }
            contributed = true
            if collecting { baselineCounts[channel] += 1 }
            if inPeriod { periodCounts[channel] += 1 }
            let n = Double(baselineCounts[channel])
            for band in 0..<bandCount {
                let value = logOdds(channel: channel, band: band)
                let slot = channel * bandCount + band
                if collecting {
                    let delta = value - baselineMean[slot]
                    baselineMean[slot] += delta / n
                    baselineM2[slot] += delta * (value - baselineMean[slot])
                }
                if inPeriod { periodSum[slot] += value }
            }
        }
        guard contributed else {
            if inPeriod { periodExcluded += 1 }
            return
        }
        if collecting {
            baselineFrames += 1
            frameRow[layout.lane(.baselineFrames)] = Double(baselineFrames)
        }
        if inPeriod { periodFrames += 1 }
    }

    private func completeBaseline() {
        baselineState = .complete
    }

    /// Makes the indicator of the period ending at `index` from the channels that have both baseline and period
    /// frames; returns `false` (and leaves the row alone) when no channel has.
    private func makeIndicator(at index: Int, time: Double) -> Bool {
        let layout = indicatorLayout
        let thresholds = configuration.classifier
        let roles = configuration.roles
        var included = 0
        for channel in 0..<channelCount where baselineCounts[channel] > 0 && periodCounts[channel] > 0 {
            included += 1
        }
        guard included > 0 else { return false }
        indicatorRow[layout.lane(.counter)] = Double(indicatorCount)
        indicatorRow[layout.lane(.sampleIndex)] = Double(index)
        indicatorRow[layout.lane(.timeframe)] = time * 1000
        indicatorRow[layout.lane(.frames)] = Double(periodFrames)
        indicatorRow[layout.lane(.excludedFrames)] = Double(periodExcluded)
        indicatorCount += 1
        for band in 0..<bandCount { indicatorRow[layout.overallZLane(band: band)] = 0 }
        for channel in 0..<channelCount {
            let baselineCount = baselineCounts[channel]
            let periodCount = periodCounts[channel]
            guard baselineCount > 0, periodCount > 0 else {
                // Left out: no usable window in the baseline or in this period.
                for band in 0..<bandCount { indicatorRow[layout.zLane(channel: channel, band: band)] = .nan }
                indicatorRow[layout.zoneLane(channel: channel)] = .nan
                indicatorRow[layout.percentLane(channel: channel)] = .nan
                continue
            }
            for band in 0..<bandCount {
                let slot = channel * bandCount + band
                let variance = baselineCount > 1 ? baselineM2[slot] / Double(baselineCount - 1) : 0
                let deviation = max(variance.squareRoot(), thresholds.minimumDeviation)
                let z = (periodSum[slot] / Double(periodCount) - baselineMean[slot]) / deviation
                indicatorRow[layout.zLane(channel: channel, band: band)] = z
                indicatorRow[layout.overallZLane(band: band)] += z / Double(included)
            }
            let level = classifier.classify(
                theta: indicatorRow[layout.zLane(channel: channel, band: roles.theta)],
                alpha: indicatorRow[layout.zLane(channel: channel, band: roles.alpha)],
                beta: indicatorRow[layout.zLane(channel: channel, band: roles.beta)])
            indicatorRow[layout.zoneLane(channel: channel)] = Double(level.zone.rawValue)
            indicatorRow[layout.percentLane(channel: channel)] = level.percent
        }
        let overall = classifier.classify(
            theta: indicatorRow[layout.overallZLane(band: roles.theta)],
            alpha: indicatorRow[layout.overallZLane(band: roles.alpha)],
            beta: indicatorRow[layout.overallZLane(band: roles.beta)])
        indicatorRow[layout.lane(.zone)] = Double(overall.zone.rawValue)
        indicatorRow[layout.lane(.percent)] = overall.percent
        return true
    }
}

/// `EEGEngine` owns FFT plans and scratch buffers used by every call: it is never `Sendable`.
@available(*, unavailable)
extension EEGEngine: Sendable {}

// MARK: - Checkpoints

extension EEGEngine {
    /// The engine's state now (``Snapshot``). Allocates the snapshot's arrays: call it between hops from the
    /// engine's thread (a fleet worker's checkpoint), never from a real-time loop.
    public func snapshot() -> Snapshot {
        Snapshot(
            channelCount: channelCount, windowSize: windowSize, bandCount: bandCount, history: history.array,
            filledFlags: filledFlags.array, lastValues: lastValues.array, writePosition: writePosition,
            filledInWindow: filledInWindow, sampleCount: sampleCount, spectrumCount: spectrumCount,
            indicatorCount: indicatorCount, analysisFailures: analysisFailures, excludedFrames: excludedFrames,
            contaminatedFrames: contaminatedFrames, unusableChannelWindows: unusableChannelWindows,
            windowRestarts: windowRestarts, withheldIndicators: withheldIndicators, nextSpectrumAt: nextSpectrumAt,
            baselineState: baselineState, baselineFrames: baselineFrames, baselineRequested: baselineRequested,
            baselineStart: baselineStart, baselineLast: baselineLast, baselineMean: baselineMean.array,
            baselineM2: baselineM2.array, baselineCounts: baselineCounts.array, periodCounts: periodCounts.array,
            periodSum: periodSum.array, periodFrames: periodFrames, periodExcluded: periodExcluded,
            periodStart: periodStart, nextIndicatorAt: nextIndicatorAt)
    }

    /// Puts the engine in the state `snapshot` describes; the next sample continues that engine's stream.
    ///
    /// - Throws: ``EEGError/snapshotMismatch(_:)`` when the snapshot was taken with another channel count, window or
    ///   band count, or its arrays have the wrong sizes; the engine is then unchanged.
    /// - Complexity: O(channels × window); no allocation.
    public func restore(_ snapshot: Snapshot) throws(EEGError) {
        let cells = channelCount * bandCount
        guard snapshot.channelCount == channelCount, snapshot.windowSize == windowSize, snapshot.bandCount == bandCount
        else {
            throw .snapshotMismatch(
                "taken with \(snapshot.channelCount) channels, window \(snapshot.windowSize), \(snapshot.bandCount) "
                    + "bands; this engine has \(channelCount), \(windowSize), \(bandCount)")
        }
        guard snapshot.history.count == history.count, snapshot.filledFlags.count == filledFlags.count,
            snapshot.lastValues.count == channelCount, snapshot.baselineMean.count == cells,
            snapshot.baselineM2.count == cells, snapshot.periodSum.count == cells,
            snapshot.baselineCounts.count == channelCount, snapshot.periodCounts.count == channelCount,
            (0..<windowSize).contains(snapshot.writePosition), snapshot.sampleCount >= 0
        else { throw .snapshotMismatch("array sizes or positions out of range") }
        history.update(fromContentsOf: snapshot.history)
        filledFlags.update(fromContentsOf: snapshot.filledFlags)
        lastValues.update(fromContentsOf: snapshot.lastValues)
        baselineMean.update(fromContentsOf: snapshot.baselineMean)
        baselineM2.update(fromContentsOf: snapshot.baselineM2)
        baselineCounts.update(fromContentsOf: snapshot.baselineCounts)
        periodCounts.update(fromContentsOf: snapshot.periodCounts)
        periodSum.update(fromContentsOf: snapshot.periodSum)
        writePosition = snapshot.writePosition
        filledInWindow = snapshot.filledInWindow
        sampleCount = snapshot.sampleCount
        spectrumCount = snapshot.spectrumCount
        indicatorCount = snapshot.indicatorCount
        analysisFailures = snapshot.analysisFailures
        excludedFrames = snapshot.excludedFrames
        contaminatedFrames = snapshot.contaminatedFrames
        unusableChannelWindows = snapshot.unusableChannelWindows
        windowRestarts = snapshot.windowRestarts
        withheldIndicators = snapshot.withheldIndicators
        nextSpectrumAt = snapshot.nextSpectrumAt
        baselineState = snapshot.baselineState
        baselineFrames = snapshot.baselineFrames
        baselineRequested = snapshot.baselineRequested
        baselineStart = snapshot.baselineStart
        baselineLast = snapshot.baselineLast
        periodFrames = snapshot.periodFrames
        periodExcluded = snapshot.periodExcluded
        periodStart = snapshot.periodStart
        nextIndicatorAt = snapshot.nextIndicatorAt
    }
}
