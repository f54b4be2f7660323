import ArgumentParser
import AxonBluetooth
import AxonDevices
import AxonRecording
import AxonResearchBIT
import Foundation

extension Axon {
    /// P&G ResearchBIT sensors: scan and fetch.
    struct ResearchBIT: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "researchbit", abstract: "P&G ResearchBIT sensors: scan, fetch summary data.",
            discussion:
                "Try them on the simulator: axon researchbit scan --sim; axon researchbit fetch sim:researchbit.",
            subcommands: [ResearchBITScan.self, ResearchBITFetch.self])
    }

    /// `axon researchbit scan`.
    struct ResearchBITScan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: "Find ResearchBIT sensors and Nordic dongles (others are left out) and remember them for fetch.")

        @Option(help: "Seconds to scan.") var timeout: Double = 5
        @Option(help: "The event store where found devices are remembered.") var out = "axon-events.sqlite"
        @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).") var bus: String?
        @Flag(help: "Scan the simulated air instead: a ResearchBIT, a Nordic dongle and a heart-rate band.") var sim =
            false

        func run() async throws {
            let store = try ResearchBITStore(store: EventStore(path: out))
            let advertised: [(String?, String, [BluetoothUUID], [UInt16: [UInt8]], Int?)]
            if sim {
                let rb = SimulatedResearchBIT.Configuration()
                advertised = [
                    (
                        rb.name, rb.address, [ResearchBITProfile.researchBITService],
                        [
                            ResearchBITProfile.companyID: ResearchBITDevice.manufacturerData(
                                battery: rb.battery, dataAvailable: true)
                        ], -48
                    ),
                    (
                        "Nordic-0021", "C0:FF:EE:00:00:21", [ResearchBITProfile.nordicService],
                        [
                            ResearchBITProfile.companyID: ResearchBITDevice.manufacturerData(
                                battery: 40, dataAvailable: false)
                        ], -61
                    ),
                    ("Heartband-0023", "C0:FF:EE:00:00:23", ["180d", "180f"], [:], -55),
                ]
            } else {
                let central = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
                defer { central.close() }
                // Every device in range, filtered here by service UUID (the advertised name proves nothing).
                advertised = try await central.scan(DiscoveryFilter(), seconds: timeout).map {
                    ($0.name, $0.address, $0.serviceUUIDs, $0.manufacturerData, $0.rssi)
                }
            }
            let found = advertised.compactMap {
                ResearchBITDevice(name: $0.0, address: $0.1, serviceUUIDs: $0.2, manufacturerData: $0.3, rssi: $0.4)
            }
            for device in found { try store.remember(device) }
            printTable(
                header: ["name", "address", "kind", "battery", "data"],
                rows: found.map {
                    [
                        $0.name, $0.address, $0.kind == .researchBIT ? "ResearchBIT" : "Nordic dongle",
                        $0.batteryPercentage.map { "\($0) %" } ?? "–", $0.dataIsAvailable ? "available" : "synced",
                    ]
                })
            print("\(found.count) of \(advertised.count) devices are ResearchBIT or Nordic; remembered in \(out)")
        }
    }

    /// `axon researchbit fetch DEVICE`.
    struct ResearchBITFetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract:
                "Fetch a device's summary events into the event store (resumes after a partial fetch) and pair them into sessions."
        )

        @Argument(
            help: "sim:researchbit, or the name or address of a device an earlier scan remembered (no scan needed).")
        var device: String
        @Option(help: "The event store (SQLite).") var out = "axon-events.sqlite"
        @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).") var bus: String?

        func run() async throws {
            let store = try ResearchBITStore(store: EventStore(path: out))
            let transport: any DeviceTransport
            let address: String
            var profile = ResearchBITProfile()
            var central: BluetoothCentral?
            if device == "sim:researchbit" {
                let sim = SimulatedResearchBIT()
                transport = sim
                address = sim.configuration.address
            } else {
                guard let known = try store.knownDevice(device) else { throw ResearchBITError.unknownDevice(device) }
                let opened = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
                central = opened
                address = known.address
                profile = known.profile
                transport = BlueZTransport(
                    central: opened,
                    configuration: .init(
                        device: known.address, discovery: DiscoveryFilter(serviceUUIDs: ResearchBITProfile.serviceUUIDs)
                    ))
            }
            defer { central?.close() }
            let result = try await ResearchBITClient(
                transport: transport, store: store, address: address, profile: profile
            ).fetch()
            print("axon researchbit fetch: \(transport.deviceDescription) → \(out)")
            print(
                "\(result.events.count) events received: \(result.inserted) new, \(result.duplicates) already stored"
                    + (result.battery.map { "; battery \($0) %" } ?? ""))
            printTable(
                header: ["wake-up (UTC)", "trigger pulls", "awake (s)"],
                rows: result.sessions.map {
                    [
                        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double($0.wakeupTime))),
                        "\($0.pulls)", "\($0.awakeSeconds)",
                    ]
                })
            print(
                "\(result.sessions.count) sessions"
                    + (result.unpaired.isEmpty ? "" : ", \(result.unpaired.count) events still without a partner"))
        }
    }
}
