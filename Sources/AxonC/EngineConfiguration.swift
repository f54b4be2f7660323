// AxonC — axon_engine_config: its defaults, fitting it to a recording, and turning it into the engine's own.

import AxonDSP
import AxonEEG
import AxonRecording
import CAxonABI

/// The configuration every axon_engine_config starts from: ``AxonEEG/EEGEngine/Configuration``'s defaults with
/// `axon analyze`'s choices (hop one second, 60 s baseline, artifacts excluded, blink scale 2.5).
private let defaultConfiguration = EEGEngine.Configuration()

/// Sets a config to the defaults, struct_size included (`axon.h`).
@c @implementation
public func axon_engine_config_default(_ config: UnsafeMutablePointer<axon_engine_config>?) -> CInt {
    reportingFailure { () throws(CallFailure) in
        guard let config else { throw .null("config", in: "axon_engine_config_default") }
        let defaults = defaultConfiguration
        var result = axon_engine_config()
        result.struct_size = MemoryLayout<axon_engine_config>.stride
        result.sample_rate = defaults.sampleRate
        result.channel_count = defaults.channelCount
        result.channel_labels = nil
        result.window_size = CInt(defaults.windowSize)
        result.hop = CInt(defaults.hop)
        result.baseline_seconds = defaults.baselineDuration
        result.indicator_seconds = defaults.indicatorPeriod
        result.rail_magnitude = defaults.quality.railMagnitude ?? 0
        result.blink_scale = defaults.quality.blinkScale ?? 0
        result.exclude_artifacts = defaults.quality.excludeArtifacts ? 1 : 0
        result.band_count = defaults.bands.count
        withUnsafeMutableBytes(of: &result.bands) { bytes in
            let bands = bytes.bindMemory(to: axon_band.self)
            for index in bands.indices {
                bands[index] =
                    index < defaults.bands.count
                    ? axon_band(low_hz: defaults.bands[index].lower, high_hz: defaults.bands[index].upper)
                    : axon_band(low_hz: 0, high_hz: 0)
            }
        }
        result.theta_band = CInt(defaults.roles.theta)
        result.alpha_band = CInt(defaults.roles.alpha)
        result.beta_band = CInt(defaults.roles.beta)
        result.start_time = 0
        config.pointee = result
    }
}

/// Fits a config to a recording as `axon analyze` does (`axon.h`).
@c @implementation
public func axon_engine_config_for_recording(
    _ recording: OpaquePointer?, _ config: UnsafeMutablePointer<axon_engine_config>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_engine_config_for_recording"
        let handle = try RecordingHandle.from(recording, in: function)
        guard let config else { throw .null("config", in: function) }
        try checkStructSize(config.pointee, in: function)
        // EEGSessionAnalysis's fitting, the one `axon analyze` applies: rate, labels, one-second hop, rail.
        var fitted = EEGEngine.Configuration()
        fitted.quality.railMagnitude = nil
        fitted = fitted.fitted(to: handle.recording.descriptor, hop: nil)
        config.pointee.sample_rate = fitted.sampleRate
        config.pointee.channel_count = fitted.channelCount
        config.pointee.channel_labels = UnsafePointer(handle.labelArray)
        config.pointee.hop = CInt(clamping: fitted.hop)
        if let rail = fitted.quality.railMagnitude { config.pointee.rail_magnitude = rail }
        config.pointee.start_time = handle.recording.startTime ?? 0
    }
}

/// Refuses a config that axon_engine_config_default did not set up (or that another layout of the struct made).
func checkStructSize(_ config: axon_engine_config, in function: String) throws(CallFailure) {
    guard config.struct_size == MemoryLayout<axon_engine_config>.stride else {
        throw .invalidArgument(
            "\(function): config.struct_size is \(config.struct_size), not \(MemoryLayout<axon_engine_config>.stride): "
                + "set the config up with axon_engine_config_default first")
    }
}

extension EEGEngine.Configuration {
    /// The engine's configuration from a C one, with every field checked that the engine's own validation does not
    /// see (labels, band count, NaNs); the engine validates the rest when it is made.
    init(_ config: axon_engine_config, in function: String) throws(CallFailure) {
        try checkStructSize(config, in: function)
        self.init()
        let channels = config.channel_count
        guard channels >= 1, channels <= 65_536 else {
            throw .invalidArgument("\(function): channel_count = \(channels); it must lie in 1…65536")
        }
        channelLabels = try AxonC.channelLabels(config.channel_labels, count: channels, in: function)
        sampleRate = config.sample_rate
        windowSize = Int(config.window_size)
        hop = Int(config.hop)
        // The duration is kept when there is no baseline: the engine checks it against the hop either way.
        if config.baseline_seconds != 0 { baselineDuration = config.baseline_seconds }
        guard config.baseline_seconds >= 0, config.baseline_seconds.isFinite else {
            throw .invalidArgument("\(function): baseline_seconds = \(config.baseline_seconds); it must be finite, ≥ 0")
        }
        guard config.indicator_seconds > 0, config.indicator_seconds.isFinite else {
            throw .invalidArgument(
                "\(function): indicator_seconds = \(config.indicator_seconds); it must be finite, > 0")
        }
        indicatorPeriod = config.indicator_seconds
        guard config.rail_magnitude >= 0, config.rail_magnitude.isFinite else {
            throw .invalidArgument("\(function): rail_magnitude = \(config.rail_magnitude); it must be finite, ≥ 0")
        }
        quality.railMagnitude = config.rail_magnitude > 0 ? config.rail_magnitude : nil
        guard config.blink_scale >= 0, config.blink_scale.isFinite else {
            throw .invalidArgument("\(function): blink_scale = \(config.blink_scale); it must be finite, ≥ 0")
        }
        quality.blinkScale = config.blink_scale > 0 ? config.blink_scale : nil
        quality.excludeArtifacts = config.exclude_artifacts != 0
        bands = try Self.bands(config, in: function)
        roles = EEGEngine.BandRoles(
            theta: Int(config.theta_band), alpha: Int(config.alpha_band), beta: Int(config.beta_band))
        guard config.start_time.isFinite else {
            throw .invalidArgument("\(function): start_time = \(config.start_time); it must be finite")
        }
    }

    /// The config's bands, each checked to be a band (finite, low below high).
    private static func bands(_ config: axon_engine_config, in function: String) throws(CallFailure) -> [FrequencyBand]
    {
        let count = config.band_count
        guard (1...Int(AXON_MAX_BANDS)).contains(count) else {
            throw .invalidArgument("\(function): band_count = \(count); it must lie in 1…\(AXON_MAX_BANDS)")
        }
        var raw = config.bands
        let given = withUnsafeBytes(of: &raw) { Array($0.bindMemory(to: axon_band.self).prefix(count)) }
        var bands: [FrequencyBand] = []
        for (index, band) in given.enumerated() {
            do throws(DSPError) { bands.append(try FrequencyBand(band.low_hz, band.high_hz)) } catch {
                throw .invalidArgument("\(function): bands[\(index)] = \(band.low_hz)–\(band.high_hz) Hz: \(error)")
            }
        }
        return bands
    }
}
