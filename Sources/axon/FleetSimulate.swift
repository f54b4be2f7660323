import ArgumentParser
import AxonFleet
import Foundation

/// `axon fleet simulate`: N simulated headsets published as gateways.
struct FleetSimulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Publish N simulated 4-channel 250 Hz headsets (sim-0000…; different rhythms and seeds, every fourth losing packets).")

    @Option(help: "Devices.")
    var devices: Int = 10

    @Option(help: "Index of the first device.")
    var first: Int = 0

    @Option(help: "Seconds of data per device.")
    var seconds: Double = 60

    @Flag(help: "Publish as fast as the broker acknowledges instead of in real time.")
    var fast = false

    @Option(help: "Publishing threads.")
    var threads: Int = 4

    @Option(help: "Frames per message.")
    var batch: Int = 125

    @Option(help: "Spool folder (default: a temporary folder).")
    var spool: String?

    @Flag(help: "Print the per-device summary as JSON.")
    var json = false

    @OptionGroup var connection: FleetConnectionOptions

    func validate() throws {
        guard devices >= 1, first >= 0, seconds > 0, threads >= 1, (1...FrameBatch.maxFrames).contains(batch) else {
            throw ValidationError("need --devices ≥ 1, --first ≥ 0, --seconds > 0, --threads ≥ 1, 1 ≤ --batch ≤ \(FrameBatch.maxFrames)")
        }
    }

    func run() throws {
        let nats = try connection.connect(name: "axon-simulate")
        try FleetSubjects.ensure(on: nats, replicas: connection.replicas)
        let spoolDirectory = spool.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("axon-fleet-spool-\(getpid())")
        let simulator = try FleetSimulator(
            nats: nats,
            options: .init(
                devices: devices, firstIndex: first, seconds: seconds, fast: fast, threads: threads,
                publisher: .init(batchFrames: batch, spoolDirectory: spoolDirectory)))
        let summary = try simulator.run()
        if json { return try printFleetJSON(summary) }
        let spooled = summary.devices.reduce(0) { $0 + $1.spooledBatches }
        let dropped = summary.devices.reduce(0) { $0 + $1.droppedFrames }
        let left = summary.devices.reduce(0) { $0 + $1.spoolBatches }
        print(
            "axon fleet simulate: \(devices) devices × \(fmt(seconds, 1)) s = \(summary.frames) frames in "
                + "\(fmt(summary.seconds, 2)) s (\(fmt(Double(summary.frames) / 250 / summary.seconds, 1)) device-seconds/s); "
                + "\(spooled) messages spooled, \(dropped) frames dropped, \(left) left in spools")
    }
}
