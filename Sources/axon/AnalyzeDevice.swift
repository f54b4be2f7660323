import AxonConnect
import AxonDevices
import AxonEEG
import Foundation

extension Axon.Analyze {
    /// A live device through the engine for `--seconds` of its samples, collected into the same report as a file
    /// (``EEGSessionAnalysis/live(source:timeline:configuration:baselineSeconds:powerBands:seconds:willStart:)``):
    /// `--device` opened by ``LiveEEGDevice`` (as `record` does). Returns the report, a line naming the source, and
    /// the device's summary line.
    func analyzeDevice(_ device: SourceSpecifier, configuration: EEGEngine.Configuration) async throws
        -> (EEGAnalysisReport, String, String)
    {
        let picked = channels?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let live = try await LiveEEGDevice.open(
            device, bus: bus, channels: picked, musePreset: "p21", lslConfig: lslConfig, searchSeconds: min(seconds, 30))
        defer { live.close() }
        let configuration = configuration.fitted(to: live.source.descriptor, hop: hop)
        let rate = configuration.sampleRate
        let (report, statistics) = try await EEGSessionAnalysis.live(
            source: live.source, timeline: live.timeline, configuration: configuration,
            baselineSeconds: baseline > 0 ? baseline : nil,
            powerBands: try powerBands.powers(configuration: configuration).bands, seconds: seconds
        ) {
            print(
                "axon analyze: \(live.title), \(configuration.channelLabels.joined(separator: ", ")) at "
                    + "\(fmt(rate, 0)) Hz for \(fmt(seconds, 0)) s of samples …")
        }
        let source =
            "\(device) live: \(configuration.channelLabels.count) channels, \(fmt(rate, 0)) Hz, "
            + "\(fmt(Double(statistics.delivered) / rate, 2)) s of samples, \(statistics.gapRecords) gap records, "
            + "\(statistics.dropped) dropped"
        return (report, source, live.summary())
    }
}
