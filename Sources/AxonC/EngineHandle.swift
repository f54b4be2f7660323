// AxonC — what an axon_engine handle holds: the EEG engine, the samples' clock, and the results not yet taken.

import AxonEEG
import CAxonABI

/// An engine for the C interface: ``AxonEEG/EEGEngine`` fed channel-major blocks, its spectra and indicators
/// converted to the header's structs as they are made and kept until the caller takes them.
///
/// Gaps are treated as ``AxonEEG/EEGOfflineAnalysis`` treats a recording's (the path `axon analyze` takes), so a
/// caller feeding a recording's frames gets `axon analyze`'s numbers.
///
/// Threading: one thread at a time (`axon.h`); the registry's lock is not held while it runs.
final class EngineHandle {
    let engine: EEGEngine
    let configuration: EEGEngine.Configuration
    /// Time of sample 0 for untimed pushes, Unix seconds.
    let startTime: Double
    let channelCount: Int
    let bandCount: Int

    /// One frame gathered from the caller's channel-major block; the last real frame and one filled-in frame while a
    /// loss is bridged.
    private var frame: [Double]
    private var previous: [Double]
    private var filled: [Double]
    /// Samples lost before the next frame (axon_engine_skip), and the time of the last frame ingested.
    private var pendingLoss = 0
    private var lastTime: Double?

    /// Results not yet taken, oldest first, from `…Taken` on; the taken prefix is dropped when everything is taken,
    /// so the arrays keep their capacity and steady use allocates nothing.
    private(set) var spectra = ResultQueue<axon_spectrum_row>()
    private(set) var indicators = ResultQueue<axon_indicator>()
    private(set) var zones = ResultQueue<axon_channel_zone>()

    init(_ configuration: EEGEngine.Configuration, baseline: Bool, startTime: Double) throws(EEGError) {
        engine = try EEGEngine(configuration)
        self.configuration = configuration
        self.startTime = startTime
        channelCount = configuration.channelCount
        bandCount = configuration.bands.count
        frame = Array(repeating: 0, count: channelCount)
        previous = frame
        filled = frame
        if baseline { engine.startBaseline() }
    }

    /// The registry's name for this kind of handle, in messages.
    static let kind = "engine"

    /// The engine behind `handle`.
    static func from(_ handle: OpaquePointer?, in function: String) throws(CallFailure) -> EngineHandle {
        try HandleRegistry.shared.object(handle, as: EngineHandle.self, kind: kind, in: function)
    }

    // MARK: - Feeding

    /// Counts `missing` samples lost before the next frame; ignored before the first frame, as a recording's gap
    /// before its first frame is.
    func skip(_ missing: Int) {
        guard lastTime != nil else { return }
        pendingLoss += missing
    }

    /// Ingests `count` frames, channel-major (`samples[c * channelStride + i]`), checked finite by the caller, with
    /// their times or the untimed clock's.
    ///
    /// A frame after a loss (``skip(_:)``) goes in alone, bridged or restarting the window; the rest of the block goes
    /// to the engine's batch ingest, which reads it in place, channel by channel, and copies the stretches between
    /// hops in a tight loop (one call per frame costs about seven times the engine's own work; turning the block
    /// frame-major first cost a tenth of it).
    func push(_ samples: UnsafePointer<Double>, channelStride: Int, times: UnsafePointer<Double>?, count: Int) {
        guard count > 0 else { return }
        var first = 0
        if pendingLoss > 0 {
            pushOne(samples, channelStride: channelStride, times: times, index: 0)
            first = 1
        }
        let remaining = count - first
        guard remaining > 0 else { return }
        let lastChannelStart = (channelCount - 1) * channelStride
        let base = engine.sampleCount
        let startTime = startTime, rate = configuration.sampleRate
        func time(ofFrame frame: Int) -> Double {
            times?[first + frame] ?? startTime + Double(base + frame) / rate
        }
        var done = 0
        while done < remaining {
            let offset = done
            // From channel 0's frame `offset` to the last channel's last frame.
            let block = UnsafeBufferPointer(start: samples + first + offset, count: lastChannelStart + remaining - offset)
            let (consumed, events) = engine.ingest(
                rows: block, stride: 1, valueOffset: 0, channelStride: channelStride, frameCount: remaining - offset,
                time: { time(ofFrame: offset + $0) })
            done += consumed
            collect(events, time: time(ofFrame: done - 1))
        }
        lastTime = time(ofFrame: remaining - 1)
    }

    /// Ingests frame `index` of the block alone: the first after a loss, bridged up to the engine's limit, else the
    /// window restarted.
    private func pushOne(
        _ samples: UnsafePointer<Double>, channelStride: Int, times: UnsafePointer<Double>?, index: Int
    ) {
        for channel in 0..<channelCount { frame[channel] = samples[channel * channelStride + index] }
        let loss = pendingLoss
        pendingLoss = 0
        let bridged = loss > 0 && loss <= configuration.maxBridgedSamples
        if loss > 0, !bridged { engine.restartWindow(afterLosing: loss) }
        // Untimed, the frame's index counts the lost samples, bridged or not.
        let time = times?[index] ?? untimedTime(ofSample: engine.sampleCount + (bridged ? loss : 0))
        if bridged { bridge(loss, before: time) }
        let events = frame.withUnsafeBufferPointer { engine.ingest($0, time: time) }
        collect(events, time: time)
        lastTime = time
    }

    private func untimedTime(ofSample index: Int) -> Double {
        startTime + Double(index) / configuration.sampleRate
    }

    /// Fills `missing` samples on the line from the last frame to the one in `frame`, at times evenly between
    /// theirs — ``AxonEEG/EEGOfflineAnalysis``'s bridge.
    private func bridge(_ missing: Int, before time: Double) {
        let before = lastTime ?? time
        let step = (time - before) / Double(missing + 1)
        // The line starts at the last real frame: copied before the first filled sample replaces it in the engine.
        engine.withLastSample { last in
            for channel in 0..<channelCount { previous[channel] = last[channel] }
        }
        for index in 1...missing {
            let fraction = Double(index) / Double(missing + 1)
            for channel in 0..<channelCount {
                filled[channel] = previous[channel] + (frame[channel] - previous[channel]) * fraction
            }
            let fillTime = before + Double(index) * step
            let events = filled.withUnsafeBufferPointer { engine.ingestFilled($0, time: fillTime) }
            collect(events, time: fillTime)
        }
    }

    // MARK: - Results

    private func collect(_ events: EEGEngine.Events, time: Double) {
        if events.contains(.spectrum) { collectSpectrum(time: time) }
        if events.contains(.indicators) { collectIndicator(time: time) }
    }

    private func collectSpectrum(time: Double) {
        let bandCount = bandCount
        engine.withSpectrum { view in
            for channel in 0..<channelCount {
                var row = axon_spectrum_row()
                row.window = Int64(view.counter)
                row.sample_index = Int64(view.sampleIndex)
                row.time = time
                row.channel = channel
                row.filled_samples = CInt(clamping: view.filledSamples)
                row.artifacts = CInt(view.artifacts.rawValue)
                row.excluded = view.isExcluded ? 1 : 0
                row.baseline_state = CInt(view.baselineState.rawValue)
                row.band_count = bandCount
                // The row's NaN (no peak) is kept as NaN, where the view's accessors say nil.
                setDoubles(&row.dominant_hz, count: bandCount) {
                    view.dominantFrequency(channel: channel, band: $0) ?? .nan
                }
                setDoubles(&row.peak_power, count: bandCount) { view.peakPower(channel: channel, band: $0) ?? .nan }
                setDoubles(&row.band_power, count: bandCount) { view.bandPower(channel: channel, band: $0) }
                setDoubles(&row.relative_power, count: bandCount) { view.relativePower(channel: channel, band: $0) }
                row.reference_power = view.referencePower(channel: channel)
                row.quality = axon_channel_quality(
                    railed_fraction: view.quality(channel: channel, .railedFraction),
                    power: view.quality(channel: channel, .power),
                    line_share: view.quality(channel: channel, .lineShare),
                    muscle_share: view.quality(channel: channel, .muscleShare),
                    slow_swing: view.quality(channel: channel, .slowSwing),
                    usable: view.isUsable(channel: channel) ? 1 : 0)
                spectra.append(row)
            }
        }
    }

    private func collectIndicator(time: Double) {
        let layout = engine.indicatorLayout
        let bandCount = bandCount
        engine.withIndicatorRow { row in
            let index = Int64(row[layout.lane(.counter)])
            var indicator = axon_indicator()
            indicator.index = index
            indicator.sample_index = Int64(row[layout.lane(.sampleIndex)])
            indicator.time = time
            indicator.zone = CInt(row[layout.lane(.zone)])
            indicator.percent = row[layout.lane(.percent)]
            indicator.frames = CInt(row[layout.lane(.frames)])
            indicator.excluded_frames = CInt(row[layout.lane(.excludedFrames)])
            indicator.band_count = bandCount
            setDoubles(&indicator.z_scores, count: bandCount) { row[layout.overallZLane(band: $0)] }
            indicators.append(indicator)
            for channel in 0..<channelCount {
                var zone = axon_channel_zone()
                zone.indicator = index
                zone.channel = channel
                // A channel left out of the indicator has NaN for its zone and percent in the row.
                let raw = row[layout.zoneLane(channel: channel)]
                zone.zone = raw.isNaN ? AXON_ZONE_LEFT_OUT : CInt(raw)
                zone.percent = row[layout.percentLane(channel: channel)]
                setDoubles(&zone.z_scores, count: bandCount) { row[layout.zLane(channel: channel, band: $0)] }
                zones.append(zone)
            }
        }
    }

    // MARK: - Taking

    /// Moves up to `capacity` spectrum rows into `output`; returns how many.
    func takeSpectra(into output: UnsafeMutablePointer<axon_spectrum_row>, capacity: Int) -> Int {
        spectra.take(into: output, capacity: capacity)
    }

    /// Moves up to `capacity` indicators into `output`, and their channels' zones into `zones` when given; returns
    /// how many indicators. The caller has checked that `zoneCapacity` holds at least one indicator's zones.
    func takeIndicators(
        into output: UnsafeMutablePointer<axon_indicator>, capacity: Int,
        zones zoneOutput: UnsafeMutablePointer<axon_channel_zone>?, zoneCapacity: Int
    ) -> Int {
        var count = min(capacity, indicators.count)
        if zoneOutput != nil { count = min(count, zoneCapacity / channelCount) }
        let taken = indicators.take(into: output, capacity: count)
        if let zoneOutput {
            _ = zones.take(into: zoneOutput, capacity: taken * channelCount)
        } else {
            zones.drop(taken * channelCount)
        }
        return taken
    }
}
