// AxonEEG — the engine over a whole recording held in memory, as fast as one core goes.

import AxonDSP

/// Runs an ``EEGEngine`` over frames already in memory (a loaded recording) on the calling thread and returns the
/// summary. No ring and no threads: the fastest way through a file, and deterministic.
///
///     let report = try EEGOfflineAnalysis.run(configuration: configuration, frameCount: recording.frameCount,
///                                             baselineSeconds: 60) { frame, channel in recording.value(frame: frame, channel: channel) }
///                                             time: { recording.time(ofFrame: $0) }
///
/// Threading: runs on the caller's thread; the closures are called there.
public enum EEGOfflineAnalysis {
    /// Analyses `frameCount` frames.
    ///
    /// - Parameters:
    ///   - configuration: the engine's parameters (their channel count must match what `value` serves).
    ///   - frameCount: frames to ingest.
    ///   - baselineSeconds: start a baseline of this length with the first frame (overrides the configuration's
    ///     duration); `nil` for no baseline and no indicators.
    ///   - value: the value of a channel in a frame.
    ///   - time: the Unix time of a frame, seconds.
    ///   - gaps: samples lost before a frame, as (first frame after the loss, samples lost), in frame order: treated
    ///     as ``EEGProcessor`` treats a live ``AxonStreams/GapRecord`` — a loss up to
    ///     ``EEGEngine/Configuration/maxBridgedSamples`` is bridged with filled samples on the line between the
    ///     samples around it, a longer one restarts the window (``EEGEngine/restartWindow(afterLosing:)``), so no
    ///     spectrum, baseline or indicator takes anything from it.
    ///   - segments: stretches marked eyes open or eyes closed (seconds from the first frame): the report's
    ///     ``EEGAnalysisReport/reactivity`` when both states are marked (``AlphaReactivity``).
    ///   - eyesOpen: the clean windows of a separate eyes-open recording
    ///     (``alphaWindows(configuration:frameCount:value:time:gaps:)``): the reactivity is then this recording's eyes-closed segments (all of it, when none
    ///     is marked) against those.
    ///   - reactivitySource: how the states were marked, for the report.
    ///   - allWindows: where to gather every clean window (for the report's individual alpha frequency); a new
    ///     tracker when `nil`.
    ///   - powerBands: the bands of the report's ``EEGAnalysisReport/bandPowers``.
    ///   - onFrame: called with each spectrum frame as it is made (for live printing), before it is summarised.
    /// - Throws: ``EEGError`` for a configuration that cannot work.
    public static func run(
        configuration: EEGEngine.Configuration, frameCount: Int, baselineSeconds: Double?,
        value: (_ frame: Int, _ channel: Int) -> Double, time: (_ frame: Int) -> Double,
        gaps: [(beforeFrame: Int, missingCount: Int)] = [], segments: [AlphaReactivity.Segment] = [],
        eyesOpen: AlphaFrequencyTracker? = nil, reactivitySource: String = "the segments given",
        collectingInto allWindows: AlphaFrequencyTracker? = nil, powerBands: PowerBands = .standard,
        onFrame: (SpectrumFrame) -> Void = { _ in }, onIndicator: (ActivityIndicators) -> Void = { _ in }
    ) throws(EEGError) -> EEGAnalysisReport {
        var configuration = configuration
        if let baselineSeconds { configuration.baselineDuration = baselineSeconds }
        let engine = try EEGEngine(configuration)
        var builder = EEGAnalysisReport.Builder(
            configuration: configuration, baselineSeconds: baselineSeconds, powerBands: powerBands)
        let alpha: AlphaFrequencyTracker
        if let allWindows { alpha = allWindows } else { alpha = try AlphaFrequencyTracker(configuration: configuration) }
        let openWindows: AlphaFrequencyTracker
        if let eyesOpen { openWindows = eyesOpen } else { openWindows = try AlphaFrequencyTracker(configuration: configuration) }
        let closedWindows = try AlphaFrequencyTracker(configuration: configuration)
        let rate = configuration.sampleRate
        var windowStarts: [Int] = []  // the first sample of every window the IAF averages, for the report
        func spans(_ state: AlphaReactivity.EyesState) -> [ClosedRange<Double>] {
            segments.filter { $0.state == state }.map { $0.from...$0.to }
        }
        let openSpans = eyesOpen == nil ? spans(.open) : []
        let closedSpans = spans(.closed).isEmpty && eyesOpen != nil ? [0...Double.infinity] : spans(.closed)
        /// Whether the window of `frame` lies wholly inside one of `spans`.
        func inside(_ frame: SpectrumFrame, _ spans: [ClosedRange<Double>]) -> Bool {
            let start = Double(frame.sampleIndex + 1 - configuration.windowSize) / rate
            let end = Double(frame.sampleIndex + 1) / rate
            return spans.contains { start >= $0.lowerBound - 1e-9 && end <= $0.upperBound + 1e-9 }
        }
        if baselineSeconds != nil { engine.startBaseline() }
        func collect(_ events: EEGEngine.Events) {
            if events.contains(.spectrum) {
                let spectrum = engine.withSpectrum { view in
                    SpectrumFrame(
                        view, labels: configuration.channelLabels, bands: configuration.bands,
                        binWidth: engine.grid.binWidth)
                }
                onFrame(spectrum)
                builder.add(spectrum)
                engine.withSpectrum { view in
                    if alpha.add(view: view, from: engine) {
                        windowStarts.append(view.sampleIndex + 1 - configuration.windowSize)
                    }
                    if inside(spectrum, openSpans) { openWindows.add(view: view, from: engine) }
                    if inside(spectrum, closedSpans) { closedWindows.add(view: view, from: engine) }
                }
            }
            if events.contains(.indicators) {
                let indicator = engine.withIndicatorRow { row in
                    ActivityIndicators(row: row, layout: engine.indicatorLayout, labels: configuration.channelLabels)
                }
                onIndicator(indicator)
                builder.add(indicator)
            }
        }
        var frameValues = [Double](repeating: 0, count: configuration.channelCount)
        var fillValues = frameValues
        var gapIndex = 0
        for frame in 0..<frameCount {
            for channel in 0..<configuration.channelCount { frameValues[channel] = value(frame, channel) }
            while gapIndex < gaps.count, gaps[gapIndex].beforeFrame <= frame {
                let missing = gaps[gapIndex].missingCount
                gapIndex += 1
                guard missing > 0, frame > 0 else { continue }
                if missing > configuration.maxBridgedSamples {
                    engine.restartWindow(afterLosing: missing)
                    continue
                }
                let last = engine.withLastSample { Array($0) }
                let before = time(frame - 1)
                let step = (time(frame) - before) / Double(missing + 1)
                for index in 1...missing {
                    let fraction = Double(index) / Double(missing + 1)
                    for channel in 0..<fillValues.count {
                        fillValues[channel] = last[channel] + (frameValues[channel] - last[channel]) * fraction
                    }
                    let events = fillValues.withUnsafeBufferPointer {
                        engine.ingestFilled($0, time: before + Double(index) * step)
                    }
                    collect(events)
                }
            }
            collect(engine.ingest(frameValues, time: time(frame)))
        }
        builder.setSampleCount(frameCount)
        var report = builder.report()
        if let estimate = alpha.estimate() {
            report.individualAlpha = .init(
                estimate: estimate, windowStarts: windowStarts, resolution: alpha.periodograms[0].grid.binWidth)
        }
        if openWindows.cleanWindows > 0, closedWindows.cleanWindows > 0 {
            report.reactivity = AlphaReactivity(
                labels: configuration.channelLabels, eyesOpen: openWindows, eyesClosed: closedWindows,
                engineAlpha: configuration.bands[configuration.roles.alpha], source: reactivitySource)
        }
        return report
    }

    /// The clean windows of a whole recording, gathered for `run`'s `eyesOpen` (an eyes-open recording compared
    /// with an eyes-closed one).
    public static func alphaWindows(
        configuration: EEGEngine.Configuration, frameCount: Int,
        value: (_ frame: Int, _ channel: Int) -> Double, time: (_ frame: Int) -> Double,
        gaps: [(beforeFrame: Int, missingCount: Int)] = []
    ) throws(EEGError) -> AlphaFrequencyTracker {
        let windows = try AlphaFrequencyTracker(configuration: configuration)
        _ = try run(
            configuration: configuration, frameCount: frameCount, baselineSeconds: nil, value: value, time: time,
            gaps: gaps, collectingInto: windows)
        return windows
    }
}
