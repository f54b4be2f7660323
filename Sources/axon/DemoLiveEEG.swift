import AxonConnect
import AxonDevices
import AxonEEG
import AxonStreams
import Foundation

extension Axon.Demo {
    /// The simulated 4-channel 250 Hz source (`simulator`) in real time for `--seconds`.
    func runSimulator() async throws {
        let simulator = SimulatedSource(configuration: .init(duration: seconds, realTime: !fast, speed: speed))
        try await runLiveEEG(
            source: simulator, timeline: .init(), title: "simulated 4-channel source", summary: { "" }, close: {})
    }

    /// A Muse (preset p21: TP9, AF7, AF8, TP10 at 256 Hz) or a Ganglion (4 channels at 200 Hz) through BlueZ, or an
    /// LSL stream (`lsl:NAME`), through the engine as a headset.
    func runLiveDevice(_ specifier: SourceSpecifier) async throws {
        let live = try await LiveEEGDevice.open(
            specifier, bus: bus, musePreset: "p21", lslConfig: lslConfig, searchSeconds: searchSeconds)
        try await runLiveEEG(
            source: live.source, timeline: live.timeline, title: live.title, summary: live.summary, close: live.close)
    }

    /// A live EEG source: every channel through the engine at its rate with one-second hops, printed live for
    /// `--seconds`, then the pipeline's and the device's summaries.
    func runLiveEEG(
        source: any SampleSource, timeline: StreamTimeline.Configuration, title: String, summary: () -> String,
        close: () -> Void
    ) async throws {
        defer { close() }
        let baseline = baselineSeconds(builtIn: false)
        let rate = source.descriptor.nominalRate
        let labels = source.descriptor.channels.map(\.label)
        let configuration = EEGEngine.Configuration(
            sampleRate: rate, channelLabels: labels, windowSize: 256, hop: Int(rate), baselineDuration: baseline,
            indicatorPeriod: indicator)
        let session = try EEGSession(
            source: source, configuration: configuration,
            options: .init(publishSamples: false, pipeline: .init(timeline: timeline)))
        print(
            "axon demo: \(title), \(labels.joined(separator: ", ")) at \(fmt(rate, 0)) Hz, \(fmt(seconds, 0)) s; "
                + "baseline \(fmt(baseline, 0)) s, an indicator every \(fmt(indicator, 0)) s")
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
        let deviceSummary = summary()
        if !deviceSummary.isEmpty { print(deviceSummary) }
    }
}
