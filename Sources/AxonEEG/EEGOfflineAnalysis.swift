// AxonEEG — the engine over a whole recording held in memory, as fast as one core goes.

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
    ///     as ``EEGProcessor`` treats a live ``GapRecord`` — a loss up to
    ///     ``EEGEngine/Configuration/maxBridgedSamples`` is bridged with filled samples on the line between the
    ///     samples around it, a longer one restarts the window (``EEGEngine/restartWindow(afterLosing:)``), so no
    ///     spectrum, baseline or indicator takes anything from it.
    ///   - onFrame: called with each spectrum frame as it is made (for live printing), before it is summarised.
    /// - Throws: ``EEGError`` for a configuration that cannot work.
    public static func run(
        configuration: EEGEngine.Configuration, frameCount: Int, baselineSeconds: Double?,
        value: (_ frame: Int, _ channel: Int) -> Double, time: (_ frame: Int) -> Double,
        gaps: [(beforeFrame: Int, missingCount: Int)] = [],
        onFrame: (SpectrumFrame) -> Void = { _ in }, onIndicator: (ActivityIndicators) -> Void = { _ in }
    ) throws(EEGError) -> EEGAnalysisReport {
        var configuration = configuration
        if let baselineSeconds { configuration.baselineDuration = baselineSeconds }
        let engine = try EEGEngine(configuration)
        var builder = EEGAnalysisReport.Builder(configuration: configuration, baselineSeconds: baselineSeconds)
        if baselineSeconds != nil { engine.startBaseline() }
        func collect(_ events: EEGEngine.Events) {
            if events.contains(.spectrum) {
                let spectrum = SpectrumFrame(
                    engine.spectrum, labels: configuration.channelLabels, bands: configuration.bands,
                    binWidth: engine.grid.binWidth)
                onFrame(spectrum)
                builder.add(spectrum)
            }
            if events.contains(.indicators) {
                let indicator = ActivityIndicators(
                    row: engine.indicatorRowView, layout: engine.indicatorLayout, labels: configuration.channelLabels)
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
                let last = Array(engine.lastSample)
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
        return builder.report()
    }
}
