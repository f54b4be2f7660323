import AxonEEG
import AxonMuse
import AxonStreams
import Foundation

extension Axon.Demo {
    /// A Muse through BlueZ: TP9, AF7, AF8 and TP10 at 256 Hz through the engine (one-second windows and hops),
    /// printed live for `--seconds`.
    func runMuse(selector: String) async throws {
        let transport = try await MuseOptions.transport(selector: selector, bus: bus)
        let source = try MuseSource(transport: transport, preset: "p21")
        let rate = source.descriptor.nominalRate
        let labels = source.descriptor.channels.map(\.label)
        let configuration = EEGEngine.Configuration(
            sampleRate: rate, channelLabels: labels, windowSize: 256, hop: Int(rate), baselineDuration: baseline,
            indicatorPeriod: indicator)
        let session = try EEGSession(
            source: source, configuration: configuration,
            options: .init(publishSamples: false, pipeline: .init(timeline: source.timelineConfiguration)))
        print(
            "axon demo: Muse \(selector) through BlueZ on \(transport.central.bus.address), preset p21, "
                + "\(labels.joined(separator: ", ")) at \(fmt(rate, 0)) Hz, \(fmt(seconds, 0)) s; baseline "
                + "\(fmt(baseline, 0)) s, an indicator every \(fmt(indicator, 0)) s")
        session.startBaseline()
        try session.start()
        let stopTask = Task {
            try? await Task.sleep(for: .seconds(seconds))
            session.stop()
        }
        await printLive(session: session, printer: EEGPrinter(configuration: configuration))
        stopTask.cancel()
        session.stop()
        printSummary(session.statistics())
        print(MuseOptions.summary(source.state()))
        transport.central.close()
    }
}
