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
    ///   - onFrame: called with each spectrum frame as it is made (for live printing), before it is summarised.
    /// - Throws: ``EEGError`` for a configuration that cannot work.
    public static func run(
        configuration: EEGEngine.Configuration, frameCount: Int, baselineSeconds: Double?,
        value: (_ frame: Int, _ channel: Int) -> Double, time: (_ frame: Int) -> Double,
        onFrame: (SpectrumFrame) -> Void = { _ in }, onIndicator: (ActivityIndicators) -> Void = { _ in }
    ) throws(EEGError) -> EEGAnalysisReport {
        var configuration = configuration
        if let baselineSeconds { configuration.baselineDuration = baselineSeconds }
        let engine = try EEGEngine(configuration)
        var builder = EEGAnalysisReport.Builder(configuration: configuration, baselineSeconds: baselineSeconds)
        if baselineSeconds != nil { engine.startBaseline() }
        var frameValues = [Double](repeating: 0, count: configuration.channelCount)
        for frame in 0..<frameCount {
            for channel in 0..<configuration.channelCount { frameValues[channel] = value(frame, channel) }
            let events = engine.ingest(frameValues, time: time(frame))
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
        builder.setSampleCount(frameCount)
        return builder.report()
    }
}
