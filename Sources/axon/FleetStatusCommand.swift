import ArgumentParser
import AxonFleet
import Foundation

/// `axon fleet status`: workers, partitions, gateways, streams.
struct FleetStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Workers, devices per worker, lag, gateways' spools, streams.")

    @Flag(help: "One JSON document instead of a table.")
    var json = false

    @OptionGroup var connection: FleetConnectionOptions

    func run() throws {
        let nats = try connection.connect(name: "axon-status")
        let report = try FleetStatus.read(nats: nats)
        if json { return try printFleetJSON(report) }
        print("axon fleet status: \(report.workers.count) workers, \(report.gateways.count) gateways")
        for worker in report.workers {
            print("  worker \(worker.id): partitions \(worker.partitions), \(worker.devices) devices, "
                + "lag \(fmt(worker.lag, 3)) s (max \(fmt(worker.maxLag, 3))), \(worker.spectra) spectra, "
                + "\(worker.zones) zones, rejected \(worker.rejected), cpu \(fmt(worker.cpuSeconds, 1)) s")
        }
        for gateway in report.gateways {
            print("  gateway \(gateway.device): \(gateway.frames) frames, spool \(gateway.spoolBatches) messages "
                + "\(gateway.spoolBytes) bytes, \(gateway.droppedFrames) dropped")
        }
        for (name, state) in report.streams.sorted(by: { $0.key < $1.key }) {
            print("  stream \(name): \(state.messages) messages, \(state.bytes) bytes, R\(state.replicas)")
        }
    }
}
