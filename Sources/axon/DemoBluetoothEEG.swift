import AxonBluetooth
import AxonEEG
import AxonStreams
import Foundation

extension Axon.Demo {
    /// An EEG headset through BlueZ (Muse, Ganglion): every channel of `source` through the engine at its rate with
    /// one-second hops, printed live for `--seconds`, then the pipeline's and the device's summaries.
    func runBluetoothEEG(
        source: any SampleSource, timeline: StreamTimeline.Configuration, transport: BlueZTransport, title: String,
        summary: () -> String
    ) async throws {
        let rate = source.descriptor.nominalRate
        let labels = source.descriptor.channels.map(\.label)
        let configuration = EEGEngine.Configuration(
            sampleRate: rate, channelLabels: labels, windowSize: 256, hop: Int(rate), baselineDuration: baseline,
            indicatorPeriod: indicator)
        let session = try EEGSession(
            source: source, configuration: configuration,
            options: .init(publishSamples: false, pipeline: .init(timeline: timeline)))
        print(
            "axon demo: \(title) through BlueZ on \(transport.central.bus.address), \(labels.joined(separator: ", ")) "
                + "at \(fmt(rate, 0)) Hz, \(fmt(seconds, 0)) s; baseline \(fmt(baseline, 0)) s, an indicator every "
                + "\(fmt(indicator, 0)) s")
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
        print(summary())
        transport.central.close()
    }
}
