import AxonEEG
import AxonStreams
import Dispatch
import Foundation

extension Axon.Analyze {
    /// A live device through the engine for `--seconds` of its samples, collected into the same report as a file:
    /// `--device` opened by ``LiveEEGDevice`` (as `record` does), the rail from its channels' declared range unless
    /// `--rail` is given, the baseline from the first sample. Ends when that many samples have been analysed, when the
    /// device stops sending, or 10 s after `--seconds` of wall time with whatever arrived (a device that never
    /// streams). Returns the report, a line naming the source, and the device's summary line.
    func analyzeDevice(_ device: String, configuration: EEGEngine.Configuration) async throws
        -> (EEGAnalysisReport, String, String)
    {
        let picked = channels?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let live = try await LiveEEGDevice.open(
            device, bus: bus, channels: picked, musePreset: "p21", lslConfig: lslConfig, searchSeconds: min(seconds, 30))
        defer { live.close() }
        let rate = live.source.descriptor.nominalRate
        var configuration = configuration
        configuration.sampleRate = rate
        configuration.hop = hop ?? Int(rate.rounded())
        configuration.channelLabels = live.source.descriptor.channels.map(\.label)
        if baseline > 0 { configuration.baselineDuration = baseline }
        if rail == nil, let range = live.source.descriptor.channels.compactMap(\.range).first {
            configuration.quality.railMagnitude = max(abs(range.lowerBound), abs(range.upperBound))
        }
        let bandList = try powerBands.powers(configuration: configuration).bands
        let session = try EEGSession(
            source: live.source, configuration: configuration,
            options: .init(publishSamples: false, pipeline: .init(timeline: live.timeline)))
        print(
            "axon analyze: \(live.title), \(configuration.channelLabels.joined(separator: ", ")) at "
                + "\(fmt(rate, 0)) Hz for \(fmt(seconds, 0)) s of samples …")
        if baseline > 0 { session.startBaseline() }
        try session.start()

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
        let target = Int((seconds * rate).rounded())
        var builder = EEGAnalysisReport.Builder(
            configuration: configuration, baselineSeconds: baseline > 0 ? baseline : nil, powerBands: bandList)
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
        let source =
            "\(device) live: \(configuration.channelLabels.count) channels, \(fmt(rate, 0)) Hz, "
            + "\(fmt(Double(statistics.delivered) / rate, 2)) s of samples, \(statistics.gapRecords) gap records, "
            + "\(statistics.dropped) dropped"
        return (builder.report(), source, live.summary())
    }
}
