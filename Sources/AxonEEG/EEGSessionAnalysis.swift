// AxonEEG — a stream through the live path (ring → stages → engine), collected into one report.

import AxonDSP
import AxonStreams
import Dispatch
import Foundation

/// Runs a source through an ``EEGSession`` — the live path: ring, stages, engine on the consumer thread — and
/// collects what it makes into the same ``EEGAnalysisReport`` as ``EEGOfflineAnalysis``: a replay cleaned by
/// artifact subspace reconstruction (``runWithASR(source:pipeline:calibrationFrames:configuration:baselineSeconds:powerBands:sampleCount:)``),
/// or a live device for a number of seconds of its samples (``live(source:timeline:configuration:baselineSeconds:powerBands:seconds:willStart:)``).
///
///     let report = try await EEGSessionAnalysis.live(
///         source: device, timeline: .init(), configuration: configuration, baselineSeconds: 60,
///         powerBands: .standard, seconds: 120)
///
/// Threading: each call runs on the caller's task and returns when the session has ended; the session's threads are
/// its own.
public enum EEGSessionAnalysis {
    /// Replays `source` unpaced through ring → ASR → engine and collects its output. ASR calibrates on
    /// `calibrationFrames` (interleaved frames of clean resting EEG, the stream's channels and rate), so every frame —
    /// the baseline's too — is cleaned; the baseline starts once the stage's output has settled (its delay line, then
    /// one window: at 1.02 s of a 250 Hz stream, ``EEGProcessor/warmUpStages``). Times in the report count from the
    /// source's first frame, the stage's delay taken off.
    ///
    /// - Parameters:
    ///   - source: the frames (a recording's replay); it ends the run when it ends.
    ///   - pipeline: the ring and batching the source wants.
    ///   - calibrationFrames: interleaved frames ASR calibrates on.
    ///   - configuration: the engine's parameters, at the source's rate and channels.
    ///   - baselineSeconds: a baseline of this length from the first settled frame; `nil` for none.
    ///   - powerBands: the bands of the report's band powers.
    ///   - sampleCount: frames the source holds, for the report.
    /// - Throws: ``EEGError`` for a configuration or calibration that cannot work, ``EEGError/pipeline(_:)`` when the
    ///   session cannot start.
    public static func runWithASR(
        source: any SampleSource, pipeline: StreamPipeline.Configuration, calibrationFrames: [Double],
        configuration: EEGEngine.Configuration, baselineSeconds: Double?, powerBands: PowerBands, sampleCount: Int
    ) async throws(EEGError) -> EEGAnalysisReport {
        var configuration = configuration
        if let baselineSeconds { configuration.baselineDuration = baselineSeconds }
        let stage = ASRStage(
            calibration: .given(
                try ASRStage().calibration(
                    cleanFrames: calibrationFrames, channelCount: configuration.channelCount,
                    sampleRate: configuration.sampleRate)))
        let session = try EEGSession(
            source: source, configuration: configuration, stages: [stage],
            options: .init(timeBase: .device, publishSamples: false, bufferLimit: 1 << 22, pipeline: pipeline))
        if baselineSeconds != nil { session.startBaseline() }
        do { try session.start() } catch { throw .pipeline(error) }
        session.waitUntilFinished()
        // The run has ended: the sequences hold everything it made, then finish.
        var builder = EEGAnalysisReport.Builder(
            configuration: configuration, baselineSeconds: baselineSeconds, powerBands: powerBands)
        for await frame in session.spectra { builder.add(frame) }
        for await indicator in session.indicators { builder.add(indicator) }
        builder.setSampleCount(sampleCount)
        // The report counts time from the engine's first sample; the stage's delay line puts `delay` frames (its
        // zeros) before the source's first, so the source's own time is that much less.
        var report = builder.report()
        let lead = Double(stage.delay) / configuration.sampleRate
        for index in report.artifacts.indices { report.artifacts[index].time -= lead }
        for index in report.zones.indices { report.zones[index].time -= lead }
        return report
    }

    /// A live device through the engine for `seconds` of its samples, the baseline from the first sample. Ends when
    /// that many samples have been analysed, when the device stops sending, or 10 s after `seconds` of wall time
    /// with whatever arrived (a device that never streams).
    ///
    /// - Parameters:
    ///   - source: the device's samples; `configuration` must be at its rate and channels.
    ///   - timeline: how the pipeline turns the device's counters into gap records.
    ///   - configuration: the engine's parameters.
    ///   - baselineSeconds: a baseline of this length from the first sample; `nil` for none.
    ///   - powerBands: the bands of the report's band powers.
    ///   - seconds: samples to analyse, in seconds at the source's nominal rate.
    ///   - willStart: called once the session is built, just before it starts (to say what runs).
    /// - Returns: the report (its sample count is the frames delivered) and the pipeline's final statistics.
    /// - Throws: ``EEGError`` for a configuration that cannot work, ``EEGError/pipeline(_:)`` when the session
    ///   cannot start.
    public static func live(
        source: any SampleSource, timeline: StreamTimeline.Configuration, configuration: EEGEngine.Configuration,
        baselineSeconds: Double?, powerBands: PowerBands, seconds: Double, willStart: () -> Void = {}
    ) async throws(EEGError) -> (report: EEGAnalysisReport, statistics: PipelineStatistics) {
        var configuration = configuration
        if let baselineSeconds { configuration.baselineDuration = baselineSeconds }
        let session = try EEGSession(
            source: source, configuration: configuration,
            options: .init(publishSamples: false, pipeline: .init(timeline: timeline)))
        willStart()
        if baselineSeconds != nil { session.startBaseline() }
        do { try session.start() } catch { throw .pipeline(error) }

        // One thread stops the session: when the spectra show enough samples, or at the deadline.
        let enough = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let deadline = DispatchTime.now() + seconds + 10
        let stopper = Thread {
            _ = enough.wait(timeout: deadline)
            session.stop()
            stopped.signal()
        }
        stopper.start()
        let indicatorTask = Task {
            var indicators: [ActivityIndicators] = []
            for await indicator in session.indicators { indicators.append(indicator) }
            return indicators
        }
        let target = Int((seconds * configuration.sampleRate).rounded())
        var builder = EEGAnalysisReport.Builder(
            configuration: configuration, baselineSeconds: baselineSeconds, powerBands: powerBands)
        var signalled = false
        for await frame in session.spectra {
            builder.add(frame)
            if !signalled, frame.sampleIndex + 1 >= target {
                signalled = true
                enough.signal()
            }
        }
        if !signalled { enough.signal() }
        for indicator in await indicatorTask.value { builder.add(indicator) }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                stopped.wait()
                continuation.resume()
            }
        }
        let statistics = session.statistics()
        builder.setSampleCount(Int(statistics.delivered))
        return (builder.report(), statistics)
    }
}

extension EEGEngine.Configuration {
    /// This configuration at `descriptor`'s nominal rate and channel labels, with a hop of `hop` samples (default:
    /// one second's) and, when no rail is set, the rail at the largest magnitude of the first declared channel range.
    public func fitted(to descriptor: StreamDescriptor, hop: Int?) -> Self {
        var configuration = self
        configuration.sampleRate = descriptor.nominalRate
        configuration.hop = hop ?? Int(descriptor.nominalRate.rounded())
        configuration.channelLabels = descriptor.channels.map(\.label)
        if configuration.quality.railMagnitude == nil, let range = descriptor.channels.compactMap(\.range).first {
            configuration.quality.railMagnitude = max(abs(range.lowerBound), abs(range.upperBound))
        }
        return configuration
    }
}
