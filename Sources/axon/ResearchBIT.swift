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
            let scanner = ResearchBITScanner(store: try ResearchBITStore(store: EventStore(path: out)))
            let source: any AdvertisementSource
            var central: BluetoothCentral?
            if sim {
                source = SimulatedResearchBIT.Air()
            } else {
                let opened = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
                central = opened
                source = BlueZAdvertisements(central: opened)
            }
            defer { central?.close() }
            let heard = try await source.advertisements(seconds: timeout)
            let found = try scanner.devices(in: heard)
            printTable(
                header: ["name", "address", "kind", "battery", "data", "last sync (UTC)"],
                rows: found.map {
                    [
                        $0.name, $0.address, $0.kind == .researchBIT ? "ResearchBIT" : "Nordic dongle",
                        $0.batteryPercentage.map { "\($0) %" } ?? "–", $0.dataIsAvailable ? "available" : "synced",
                        $0.lastSyncTime.map { ISO8601DateFormatter().string(from: $0) } ?? "never",
                    ]
                })
            print("\(found.count) of \(heard.count) devices are ResearchBIT or Nordic; remembered in \(out)")
        }
    }

    /// BlueZ's discovery as the scanner's source: every device in range (the scanner filters by service UUID).
    struct BlueZAdvertisements: AdvertisementSource {
        let central: BluetoothCentral

        func advertisements(seconds: Double) async throws(TransportError) -> [ResearchBITAdvertisement] {
            do {
                return try await central.scan(DiscoveryFilter(), seconds: seconds).map {
                    ResearchBITAdvertisement(
                        name: $0.name, address: $0.address, serviceUUIDs: $0.serviceUUIDs,
                        manufacturerData: $0.manufacturerData, rssi: $0.rssi)
                }
            } catch {
                throw .operationFailed("scan: \(error)")
            }
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
            if let synced = result.syncTime { print("last sync: \(ISO8601DateFormatter().string(from: synced))") }
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
