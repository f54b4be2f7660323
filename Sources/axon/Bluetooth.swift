import ArgumentParser
import AxonBluetooth
import AxonBrainiac
import AxonConnect
import AxonDevices
import Foundation

extension Axon {
    /// Lists Bluetooth LE devices nearby, through BlueZ.
    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Scan for Bluetooth LE devices through BlueZ (name, address, RSSI, services).",
            discussion: """
                Uses the system bus (DBUS_SYSTEM_BUS_ADDRESS if set) or --bus. Without a radio, try it against the \
                mock bluetoothd: scripts/bluez-mock/run.sh .build/release/axon scan
                """)

        @Option(help: "Seconds to scan.")
        var seconds: Double = 5

        @Option(name: .customLong("timeout"), help: ArgumentHelp("Deprecated: --seconds.", visibility: .hidden))
        var deprecatedTimeout: Double?

        /// `--seconds`, or the old `--timeout`.
        var timeout: Double { deprecatedTimeout ?? seconds }

        @Option(help: "Only devices whose name or address starts with this.")
        var name: String?

        @Option(help: "Only devices advertising this service UUID (16-bit like 180D, or 128-bit); repeatable.")
        var service: [String] = []

        @Option(parsing: .unconditional, help: "Only devices at least this strong (dBm, e.g. --rssi -70).")
        var rssi: Int?

        @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).")
        var bus: String?

        func run() async throws {
            Deprecation.announce("--timeout", given: deprecatedTimeout != nil, use: "--seconds", command: "scan")
            let services = try service.map { text in
                guard let uuid = BluetoothUUID(parsing: text) else { throw ValidationError("not a Bluetooth UUID: \(text)") }
                return uuid
            }
            let central = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
            defer { central.close() }
            print("axon scan: \(String(format: "%.1f", timeout)) s on \(central.bus.address)")
            let found = try await central.scan(
                DiscoveryFilter(serviceUUIDs: services, namePrefix: name, minimumRSSI: rssi), seconds: timeout)
            let rows = found.map { device in
                [device.displayName, DeviceKindName.name(name: device.name, services: device.serviceUUIDs), device.address,
                 device.rssi.map { "\($0) dBm" } ?? "–",
                 device.serviceUUIDs.map(\.description).joined(separator: " ")]
            }
            printTable(header: ["name", "kind", "address", "RSSI", "services"], rows: rows)
            print("\(found.count) device\(found.count == 1 ? "" : "s")")
        }
    }
}

/// `--device ble:NAME-or-ADDRESS` and the bus it is on.
enum BluetoothOptions {
    static func busAddress(_ bus: String?) -> BusConnection.Address {
        bus.map { .address($0) } ?? .system
    }
}

/// Prints rows as left-aligned columns.
func printTable(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for row in all {
        let cells = row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
        }
        print(cells.joined(separator: "  "))
    }
}
