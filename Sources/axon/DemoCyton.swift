import AxonEEG
import AxonConnect
import AxonOpenBCI
import AxonStreams
import Foundation

extension Axon.Demo {
    /// An OpenBCI Cyton through its serial port: the chosen channels through the engine, printed live, until
    /// `--seconds` of data have been analysed or the board stops sending.
    func runCyton(path: String) async throws {
        let baseline = baselineSeconds(builtIn: false)
        let labels = (channels ?? "EXG0,EXG1,EXG2,EXG3").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        print("axon demo: OpenBCI Cyton on \(path)")
        let live = try await LiveEEGDevice.open(.cyton(port: path), bus: nil, channels: labels)
        let source = live.source
        let cyton = source as? CytonSource
        let rate = source.descriptor.nominalRate
        let configuration = EEGEngine.Configuration(
            sampleRate: rate, channelLabels: labels, hop: Int(rate), baselineDuration: baseline,
            indicatorPeriod: indicator)
        let stage = try SOSFilterStage(filters, sampleRate: rate)
        let session = try EEGSession(
            source: source, configuration: configuration, stages: stage.map { [$0] } ?? [],
            options: .init(publishSamples: false, pipeline: .init(timeline: live.timeline)))
        print(
            "  channels \(labels.joined(separator: ", ")); \(fmt(seconds, 0)) s of data; "
                + "baseline \(fmt(baseline, 0)) s, "
                + "an indicator every \(fmt(indicator, 0)) s  (change with --channels --seconds --baseline --indicator)"
        )
        if let filtered = filters.summary(.causal, sampleRate: rate) {
            print("  filtered before the engine: \(filtered)")
        }
        session.startBaseline()
        try session.start()
        let samples = Int(seconds * rate)
        let stopTask = Task.detached {
            while !Task.isCancelled {
                let delivered = session.statistics().delivered
                // A board that sent and then stopped ends the demo early (its port stays open, so the stream does not).
                let state = cyton?.state()
                let stopped = state.map { !$0.isRunning && $0.statistics.packets > 0 } ?? false
                if delivered >= samples || stopped { break }
                try? await Task.sleep(for: .milliseconds(50))
            }
            session.stop()
        }
        await printLive(session: session, printer: EEGPrinter(configuration: configuration))
        stopTask.cancel()
        session.stop()
        printSummary(session.statistics())
        print(live.summary())
    }
}
