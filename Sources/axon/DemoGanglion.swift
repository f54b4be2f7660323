import AxonEEG
import AxonOpenBCI
import AxonStreams
import Foundation

extension Axon.Demo {
    /// An OpenBCI Ganglion through BlueZ: its 4 channels at 200 Hz through the engine (one-second hops), printed live
    /// for `--seconds`.
    func runGanglion(selector: String) async throws {
        let transport = try await GanglionOptions.transport(selector: selector, bus: bus)
        let source = GanglionSource(transport: transport)
        let rate = source.descriptor.nominalRate
        let labels = source.descriptor.channels.map(\.label)
        let configuration = EEGEngine.Configuration(
            sampleRate: rate, channelLabels: labels, windowSize: 256, hop: Int(rate), baselineDuration: baseline,
            indicatorPeriod: indicator)
        let session = try EEGSession(
            source: source, configuration: configuration,
            options: .init(publishSamples: false, pipeline: .init(timeline: source.timelineConfiguration)))
        print(
            "axon demo: OpenBCI Ganglion \(selector) through BlueZ on \(transport.central.bus.address), "
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
        print(GanglionOptions.summary(source.state()))
        transport.central.close()
    }
}
