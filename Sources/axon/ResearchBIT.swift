import ArgumentParser
import AxonBluetooth
import AxonDevices
import AxonEventStore
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
            subcommands: [ResearchBITScan.self, ResearchBITFetch.self, ResearchBITPair.self])
    }

    /// `axon researchbit scan`.
    struct ResearchBITScan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: "Find ResearchBIT sensors and Nordic dongles (others are left out) and remember them for fetch.")

        @Option(help: "Seconds to scan.") var seconds: Double = 5
        @Option(name: .customLong("timeout"), help: ArgumentHelp("Deprecated: --seconds.", visibility: .hidden))
        var deprecatedTimeout: Double?
        /// `--seconds`, or the old `--timeout`.
        var timeout: Double { deprecatedTimeout ?? seconds }
        @Option(help: "The event store where found devices are remembered.") var out = "axon-events.sqlite"
        @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).") var bus: String?
        @Flag(help: "Scan the simulated air instead: a ResearchBIT, a Nordic dongle and a heart-rate band.") var sim =
            false

        func run() async throws {
            Deprecation.announce("--timeout", given: deprecatedTimeout != nil, use: "--seconds", command: "researchbit scan")
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

    /// BlueZ's discovery as the scanner's source: every device heard during the scan (the scanner filters by
    /// service UUID). BlueZ keeps objects of devices no longer advertising — an unbonded device's old private
    /// address among them — so only devices that appeared or reported a signal strength while discovering count.
    struct BlueZAdvertisements: AdvertisementSource {
        let central: BluetoothCentral

        func advertisements(seconds: Double) async throws(TransportError) -> [ResearchBITAdvertisement] {
            let events = central.deviceEvents()
            let heard = Task {
                var paths = Set<String>()
                for await event in events {
                    switch event {
                    case .appeared(let device): paths.insert(device.path)
                    case .changed(let device) where device.rssi != nil: paths.insert(device.path)
                    default: break
                    }
                }
                return paths
            }
            let found: [BluetoothDeviceInfo]
            do { found = try await central.scan(DiscoveryFilter(), seconds: seconds) } catch {
                heard.cancel()
                throw .operationFailed("scan: \(error)", cause: error)
            }
            heard.cancel()
            let paths = await heard.value
            return found.filter { paths.contains($0.path) }.map(Self.advertisement)
        }

        /// What BlueZ knows of a device, as the scanner sees it: the address BlueZ reports (the identity address of
        /// a bonded device), its kind, the bond, and the address the object was created for.
        static func advertisement(_ info: BluetoothDeviceInfo) -> ResearchBITAdvertisement {
            ResearchBITAdvertisement(
                name: info.name, address: info.address, serviceUUIDs: info.serviceUUIDs,
                manufacturerData: info.manufacturerData, rssi: info.rssi, addressKind: info.addressKind,
                isBonded: info.isBonded, firstAddress: info.pathAddress)
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
        @Option(
            help:
                "Seconds to look for a remembered device whose address may have changed (unbonded, private address) before connecting."
        ) var scanTimeout: Double = 5

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
                guard var known = try store.knownDevice(device) else { throw ResearchBITError.unknownDevice(device) }
                let opened: BluetoothCentral
                do { opened = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus)) } catch {
                    // A remembered device is reached through bluetoothd; say so, and where the simulated air's
                    // devices (remembered by `scan --sim`) are fetched from, rather than a bare D-Bus error.
                    print(
                        "axon researchbit fetch: \(known.name) (\(known.address)) is fetched through bluetoothd, "
                            + "which cannot be reached: \(error)")
                    print("  a device of the simulated air (axon researchbit scan --sim) is fetched with: "
                        + "axon researchbit fetch sim:researchbit")
                    throw ExitCode.failure
                }
                central = opened
                if !known.isBonded, known.addressKind.map({ !$0.isStable }) == true {
                    // Its address may have moved on, leaving BlueZ's object for the old one unanswered: make sure
                    // it is heard where it was remembered, or say why it cannot be found.
                    do {
                        known = try await ResearchBITScanner(store: store).locate(
                            known, in: BlueZAdvertisements(central: opened), seconds: scanTimeout)
                    } catch {
                        opened.close()
                        throw error
                    }
                }
                address = known.storeKey
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

extension Axon {
    /// `axon researchbit pair DEVICE`.
    struct ResearchBITPair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pair",
            abstract:
                "Bond with a remembered device through BlueZ, so it is found again when its private address changes.",
            discussion:
                "BlueZ then reports the device's identity address whatever address it advertises; the device stays remembered under the same store key.")

        @Argument(help: "The name or address of a device an earlier scan remembered.") var device: String
        @Option(help: "The event store where the device is remembered.") var out = "axon-events.sqlite"
        @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).") var bus: String?
        @Option(help: "Seconds to scan for the device when BlueZ does not know it.") var seconds: Double = 5
        @Option(name: .customLong("timeout"), help: ArgumentHelp("Deprecated: --seconds.", visibility: .hidden))
        var deprecatedTimeout: Double?
        /// `--seconds`, or the old `--timeout`.
        var timeout: Double { deprecatedTimeout ?? seconds }

        func run() async throws {
            Deprecation.announce("--timeout", given: deprecatedTimeout != nil, use: "--seconds", command: "researchbit pair")
            let store = try ResearchBITStore(store: EventStore(path: out))
            guard let known = try store.knownDevice(device) else { throw ResearchBITError.unknownDevice(device) }
            let central = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
            defer { central.close() }
            if await central.isPaired(known.address) == nil {
                _ = try await central.scan(
                    DiscoveryFilter(serviceUUIDs: ResearchBITProfile.serviceUUIDs), seconds: timeout)
            }
            try await central.pair(known.address)
            // BlueZ keeps the object and reports the identity address now: find it by the address it was created for.
            guard
                let info = await central.knownDevices().first(where: {
                    $0.pathAddress.caseInsensitiveCompare(known.address) == .orderedSame
                        || $0.address.caseInsensitiveCompare(known.address) == .orderedSame
                })
            else { throw ResearchBITError.notHeard(name: known.name, address: known.address, seconds: timeout, addressChanges: false) }
            let paired = try ResearchBITScanner(store: store).devices(in: [BlueZAdvertisements.advertisement(info)])
            guard let remembered = paired.first else { throw ResearchBITError.unknownDevice(device) }
            print(
                "axon researchbit pair: \(remembered.name) bonded; identity address \(remembered.address)"
                    + (remembered.addressKind.map { " (\($0))" } ?? "") + ", data kept under \(remembered.storeKey)")
        }
    }
}
