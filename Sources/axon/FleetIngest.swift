import ArgumentParser
import AxonFleet
import AxonRecording
import AxonStreams
import Foundation

/// `axon fleet ingest`: one source published as a device's raw stream.
struct FleetIngest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Publish a source (a recording, or `simulator`) as a device's raw stream, spooling to disk while the broker is away.")

    @Argument(help: "A recording (any format axon reads) or `simulator` (`simulated`, its old name, still works).")
    var source: String

    @Option(help: "The device id (A–Z a–z 0–9 - _).")
    var deviceId: String

    @OptionGroup var connection: FleetConnectionOptions

    @Option(help: "Seconds of the simulated source.")
    var seconds: Double = 60

    @Flag(help: "Replay as fast as the broker takes it instead of in real time.")
    var fast = false

    @Option(help: "Frames per message.")
    var batch: Int = 125

    @Option(help: "Spool folder (default ~/.local/state/axon/spool).")
    var spool: String?

    @Option(help: "Spool limit in MiB per device.")
    var spoolMib: Int = 64

    func validate() throws {
        guard batch >= 1, batch <= FrameBatch.maxFrames, spoolMib >= 1, seconds > 0 else {
            throw ValidationError("need 1 ≤ --batch ≤ \(FrameBatch.maxFrames), --spool-mib ≥ 1, --seconds > 0")
        }
    }

    func run() throws {
        let nats = try connection.connect(name: "axon-ingest-\(deviceId)")
        try FleetSubjects.ensure(on: nats, replicas: connection.replicas)
        let sink = JetStreamSampleSink(
            nats: nats, device: deviceId,
            options: .init(batchFrames: batch, spoolDirectory: fleetSpoolDirectory(spool), spoolLimit: spoolMib << 20))
        let pipeline: StreamPipeline
        if source == "simulated" {
            Deprecation.announce("simulated", given: true, use: "simulator", command: "fleet ingest")
        }
        if source == "simulator" || source == "simulated" {
            let simulated = SimulatedSource(
                configuration: .init(duration: seconds, realTime: !fast, samplesPerPacket: 5), sourceID: deviceId)
            pipeline = StreamPipeline(source: simulated, sinks: [sink], configuration: .init(ringCapacity: 1 << 16))
        } else {
            let recording = try RecordingReader.read(path: source)
            let replay = RecordingReplaySource(
                recording: recording, options: .init(speed: fast ? .asFastAsPossible : .realTime()))
            pipeline = StreamPipeline(source: replay, sinks: [sink], configuration: replay.pipelineConfiguration(ringCapacity: 1 << 16))
        }
        let signals = StopSignals()
        try pipeline.start()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pipeline.waitUntilFinished()
            done.signal()
        }
        while done.wait(timeout: .now() + 0.5) == .timedOut {
            if signals.isSet { pipeline.stop() }
        }
        if let statistics = sink.statistics {
            print(
                "axon fleet ingest: \(deviceId): \(statistics.frames) frames, \(statistics.publishedBatches) messages "
                    + "published, \(statistics.spooledBatches) spooled, \(statistics.replayedBatches) replayed, "
                    + "\(statistics.droppedFrames) frames dropped, \(statistics.spoolBatches) left in the spool")
        }
        let failures = pipeline.statistics().failures
        if !failures.isEmpty { throw CommandFailure("the NATS sink failed: \(failures.map(\.description))") }
    }
}
