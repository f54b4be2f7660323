// AxonC — `axon analyze` through axon.h: a recording made from the caller's samples, a whole recording analysed
// into the report `axon analyze --json` prints, and that report's text.

import AxonDSP
import AxonEEG
import AxonRecording
import AxonStreams
import CAxonABI

/// A finished analysis: the JSON text of its report. Immutable; any thread.
final class AnalysisHandle: Sendable {
    let json: String
    init(json: String) { self.json = json }

    static let kind = "analysis"
}

/// Makes a recording of the caller's channel-major samples (`axon.h`). Any thread.
@c @implementation
public func axon_recording_from_samples(
    _ samples: UnsafePointer<Double>?, _ channels: Int, _ count: Int, _ sampleRate: Double,
    _ labels: UnsafePointer<UnsafePointer<CChar>?>?, _ unit: UnsafePointer<CChar>?, _ startTime: Double,
    _ recording: UnsafeMutablePointer<OpaquePointer?>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_recording_from_samples"
        guard let recording else { throw .null("recording", in: function) }
        guard channels >= 1 else { throw .invalidArgument("\(function): channels must be at least 1") }
        guard count >= 1 else { throw .invalidArgument("\(function): count must be at least 1 frame") }
        guard sampleRate > 0, sampleRate.isFinite else {
            throw .invalidArgument("\(function): sample_rate must be finite and above 0")
        }
        guard startTime.isNaN || startTime.isFinite else {
            throw .invalidArgument("\(function): start_time must be finite, or NaN for none")
        }
        let block = try checkedSampleBlock(
            samples, channels: channels, count: count, expected: channels, mismatch: "", in: function)!
        let names = try channelLabels(labels, count: channels, in: function)
        var unitText = "µV"
        if let unit {
            guard let text = String(validatingCString: unit) else { throw .invalidArgument("\(function): unit is not UTF-8") }
            unitText = text
        }
        // Frame-major, as Recording keeps it.
        var values = [Double](repeating: 0, count: channels * count)
        for channel in 0..<channels {
            for frame in 0..<count { values[frame * channels + channel] = block[channel * count + frame] }
        }
        let descriptor = StreamDescriptor(
            name: "samples", contentType: .eeg, channels: names.map { ChannelInfo(label: $0, unit: unitText) },
            nominalRate: sampleRate, format: .float64, sourceID: "axon_recording_from_samples")
        let timestamps = startTime.isNaN ? nil : (0..<count).map { startTime + Double($0) / sampleRate }
        recording.pointee = HandleRegistry.shared.open(
            RecordingHandle(Recording(descriptor: descriptor, values: values, timestamps: timestamps)))
    }
}

/// Analyses a whole recording as `axon analyze --json` does (`axon.h`). Any thread; the recording may be read by
/// other threads meanwhile.
@c @implementation
public func axon_analyze(
    _ recording: OpaquePointer?, _ options: UnsafePointer<CChar>?, _ analysis: UnsafeMutablePointer<OpaquePointer?>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_analyze"
        let handle = try RecordingHandle.from(recording, in: function)
        guard let analysis else { throw .null("analysis", in: function) }
        var optionText: String?
        if let options {
            guard let text = String(validatingCString: options) else {
                throw .invalidArgument("\(function): options are not UTF-8")
            }
            optionText = text
        }
        let parsed = try AnalysisOptions(json: optionText, in: function)
        let report = try analyze(handle.recording, options: parsed, in: function)
        let json: String
        do { json = try report.jsonText(filters: []) } catch {
            throw CallFailure(status: AXON_ERR_INVALID_ARGUMENT, message: "\(function): the report cannot be written: \(error)")
        }
        analysis.pointee = HandleRegistry.shared.open(AnalysisHandle(json: json))
    }
}

/// The steps of `axon analyze FILE` without filters or ASR: channels picked, the segment cut, the engine fitted to
/// the recording, the eyes-open and eyes-closed stretches taken from its events, the whole run summarised.
private func analyze(_ recording: Recording, options: AnalysisOptions, in function: String) throws(CallFailure)
    -> EEGAnalysisReport
{
    var recording = recording
    do throws(RecordingError) {
        if let channels = options.channels { recording = try recording.selecting(channels: channels) }
        if options.from != nil || options.to != nil {
            recording = try recording.segment(from: options.from ?? 0, to: options.to ?? recording.duration)
        }
    } catch { throw CallFailure(error, in: function) }
    let configuration = options.configuration.fitted(to: recording.descriptor, hop: options.hop)
    do { _ = try BandPowers(bands: options.bands, configuration: configuration) } catch {
        throw .invalidArgument(
            "\(function): bands: \(error) at \(PowerBands.hertz(configuration.sampleRate)) Hz with "
                + "\(configuration.windowSize)-sample windows")
    }
    let events = recording.markers.compactMap { marker in
        marker.text.map { (time: Double(marker.frame) / recording.sampleRate, text: $0) }
    }
    let loaded = recording
    do throws(EEGError) {
        return try EEGOfflineAnalysis.run(
            configuration: configuration, frameCount: loaded.frameCount,
            baselineSeconds: options.baseline > 0 ? options.baseline : nil,
            value: { loaded.value(frame: $0, channel: $1) }, time: { loaded.time(ofFrame: $0) },
            gaps: loaded.gaps.map { ($0.beforeFrame, $0.gap.missingCount) },
            segments: AlphaReactivity.Segment.fromEvents(events, duration: loaded.duration),
            reactivitySource: "the recording's events", powerBands: options.bands)
    } catch { throw CallFailure(error, in: function) }
}

/// The report's JSON text (`axon.h`'s text convention). Any thread.
@c @implementation
public func axon_analysis_json(
    _ analysis: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_analysis_json"
        let handle = try HandleRegistry.shared.object(
            analysis, as: AnalysisHandle.self, kind: AnalysisHandle.kind, in: function)
        try copyText(handle.json, into: buffer, capacity: capacity, length: length, in: function)
    }
}

/// Frees an analysis and sets the caller's pointer to NULL (`axon.h`).
@c @implementation
public func axon_analysis_destroy(_ analysis: UnsafeMutablePointer<OpaquePointer?>?) -> CInt {
    reportingFailure { () throws(CallFailure) in
        try HandleRegistry.shared.close(
            analysis, as: AnalysisHandle.self, kind: AnalysisHandle.kind, in: "axon_analysis_destroy")
    }
}
