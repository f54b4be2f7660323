// AxonEEG — where in a recording held in memory the signal is cleanest, for a calibration.

extension EEGOfflineAnalysis {
    /// The stretch of `min(60 s, the frames)` with the fewest windows the engine flags as artifacts (blinks, muscle)
    /// in a pass over the frames, of the stretches that start on a whole second; the earliest of equals. What ASR
    /// calibrates on when no span is given.
    ///
    /// - Parameters:
    ///   - configuration: the engine's parameters, at the frames' sample rate; no baseline runs.
    ///   - frameCount, value, time, gaps: the frames, as ``run(configuration:frameCount:baselineSeconds:value:time:gaps:segments:eyesOpen:reactivitySource:collectingInto:powerBands:onFrame:onIndicator:)``
    ///     takes them.
    /// - Returns: seconds from the first frame.
    /// - Throws: ``EEGError`` for a configuration that cannot work.
    /// - Complexity: one engine pass over the frames, then O(seconds × flagged windows).
    ///
    /// Threading: runs on the caller's thread; the closures are called there.
    public static func cleanestStretch(
        configuration: EEGEngine.Configuration, frameCount: Int,
        value: (_ frame: Int, _ channel: Int) -> Double, time: (_ frame: Int) -> Double,
        gaps: [(beforeFrame: Int, missingCount: Int)] = []
    ) throws(EEGError) -> (from: Double, to: Double) {
        let raw = try run(
            configuration: configuration, frameCount: frameCount, baselineSeconds: nil, value: value, time: time,
            gaps: gaps)
        let duration = Double(frameCount) / configuration.sampleRate
        let length = min(60, duration)
        let ends = raw.artifacts.map(\.time)  // each flagged window's end, seconds from the first sample
        var best = (from: 0.0, count: Int.max)
        var start = 0.0
        while start + length <= duration + 1e-9 {
            let count = ends.count(where: { $0 > start && $0 <= start + length })
            if count < best.count { best = (start, count) }
            start += 1
        }
        return (best.from, best.from + length)
    }
}
