import ArgumentParser
import AxonFleet
import Foundation

/// `axon fleet results`: what reached the results stream, per device.
struct FleetResultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "Per device: spectra and zones received, hops missing and duplicated, lag; optionally checked against the engine offline.")

    @Option(help: "Only this device.")
    var device: String?

    @Flag(help: "One JSON document instead of a table.")
    var json = false

    @Option(help: "For sim-NNNN devices: run the engine offline over this many seconds of their signal and compare.")
    var checkSimulated: Double?

    @Option(help: "Baseline seconds the workers use (for --check-simulated).")
    var baseline: Double = 60

    @Option(help: "Indicator seconds the workers use (for --check-simulated).")
    var indicator: Double = 10

    @OptionGroup var connection: FleetConnectionOptions

    func run() throws {
        let nats = try connection.connect(name: "axon-results")
        let report = try FleetResults.read(
            nats: nats, device: device,
            checkSimulated: checkSimulated.map { ($0, FleetEngineSettings(baselineSeconds: baseline, indicatorSeconds: indicator)) })
        if json { return try printFleetJSON(report) }
        print("axon fleet results: \(report.devices.count) devices, \(report.messages) messages, "
            + "\(report.completeDevices) complete, worst lag \(fmt(report.maxLag, 3)) s")
        for device in report.devices {
            var line = "  \(device.device): \(device.spectra) spectra, \(device.zones) zones, "
                + "missing \(device.missingSpectra.count)/\(device.missingZones.count), "
                + "duplicated \(device.duplicateSpectra.count)/\(device.duplicateZones.count), "
                + "lag median \(fmt(device.medianLag, 3)) s max \(fmt(device.maxLag, 3)) s"
            if let expected = device.expectedSpectra {
                line += "; offline \(expected) spectra \(device.expectedZones ?? 0) zones, "
                    + "\(device.mismatchedRows ?? 0) rows differ"
            }
            print(line)
        }
    }
}
