// AxonBrainiac — the simulated headset's test sequence through the whole live path, summarised.

import AxonDSP
import AxonEEG

extension EEGHeadset {
    /// Runs the simulated headset's test sequence — a sine at `frequency` for `seconds` — unpaced through the whole
    /// live path (simulator → packet decoder → ring → engine) and collects its output into the report
    /// ``AxonEEG/EEGOfflineAnalysis`` makes of a file, with how far the dominant frequency strayed from the tone.
    ///
    ///     let (report, worst) = try await EEGHeadset.analyzeTestSequence(
    ///         frequency: 10, seconds: 120, configuration: .init(), baselineSeconds: 60, powerBands: .standard)
    ///
    /// - Parameters:
    ///   - frequency: the tone, Hz.
    ///   - seconds: how long the sequence runs.
    ///   - configuration: the engine's parameters (the headset's 250 Hz, 4 channels).
    ///   - baselineSeconds: a baseline of this length from the first sample, exactly; `nil` for none.
    ///   - powerBands: the bands of the report's band powers.
    /// - Returns: the report, and the largest |dominant frequency − `frequency`| in the band that holds the tone over
    ///   every spectrum and channel (infinity when a spectrum had no peak there; NaN when no band holds the tone).
    /// - Throws: what ``startTestSequence(dominantFrequency:amplitude:noise:duration:realTime:faults:)`` throws.
    ///
    /// Threading: runs on the caller's task and returns when the sequence has ended.
    public static func analyzeTestSequence(
        frequency: Double, seconds: Double, configuration: EEGEngine.Configuration, baselineSeconds: Double?,
        powerBands: PowerBands
    ) async throws -> (report: EEGAnalysisReport, worstError: Double) {
        var configuration = configuration
        if let baselineSeconds { configuration.baselineDuration = baselineSeconds }
        let headset = EEGHeadset(
            configuration: configuration,
            options: .init(timeBase: .device, publishSamples: false, pipeline: .init(ringCapacity: 1 << 16)))
        if baselineSeconds != nil { headset.startBaseline() }  // before the start: from the first sample, exactly
        try headset.startTestSequence(dominantFrequency: frequency, duration: seconds, realTime: false)
        var builder = EEGAnalysisReport.Builder(
            configuration: configuration, baselineSeconds: baselineSeconds, powerBands: powerBands)
        let band = configuration.bands.firstIndex { $0.lower <= frequency && frequency <= $0.upper }
        var worst = 0.0
        for await frame in headset.spectra {
            builder.add(frame)
            if let band {
                for channel in frame.channels {
                    // No peak in the tone's band is as wrong as it gets.
                    worst = max(worst, abs((channel.bands[band].dominantFrequency ?? .infinity) - frequency))
                }
            }
        }
        for await indicator in headset.indicators { builder.add(indicator) }
        headset.waitUntilFinished()
        builder.setSampleCount(Int((seconds * configuration.sampleRate).rounded()))
        return (builder.report(), band == nil ? .nan : worst)
    }
}
