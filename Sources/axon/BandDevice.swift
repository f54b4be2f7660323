import ArgumentParser
import AxonBand
import AxonBluetooth
import AxonDevices
import Foundation

/// Where a band command goes: `sim:band` (the simulated band, a week of data) or a band through BlueZ
/// (`ble:NAME`, `ble:ADDRESS`, or the name or address alone).
struct BandConnection {
    let session: BandSession
    let central: BluetoothCentral?
    let label: String
    /// The band of `sim:band`, made anew by each command.
    var simulated: SimulatedBand? = nil

    static func open(_ device: String, bus: String?, store: BandRecordStore?, liveHeartRate: Bool = false) async throws
        -> BandConnection
    {
        let configuration = BandSession.Configuration(liveHeartRate: liveHeartRate)
        if device == "sim:band" {
            let band = SimulatedBand()
            return BandConnection(
                session: BandSession(transport: band, store: store, configuration: configuration), central: nil,
                label: band.deviceDescription, simulated: band)
        }
        let selector = device.hasPrefix("ble:") ? String(device.dropFirst(4)) : device
        guard !selector.isEmpty else { throw ValidationError("DEVICE is sim:band, ble:NAME or ble:ADDRESS") }
        let central = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: selector, discovery: DiscoveryFilter(serviceUUIDs: [BandGATTProfile.serviceUUID])))
        return BandConnection(
            session: BandSession(transport: transport, store: store, configuration: configuration), central: central,
            label: selector)
    }

    /// The source id the store uses for this device.
    static func storeName(_ device: String) -> String {
        device.hasPrefix("ble:") ? String(device.dropFirst(4)) : device
    }

    func close() async {
        await session.close()
        central?.close()
    }
}

/// Options every band command shares.
struct BandDeviceOptions: ParsableArguments {
    @Argument(help: "sim:band, or a band through BlueZ: ble:NAME, ble:ADDRESS.")
    var device: String

    @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).")
    var bus: String?
}

/// Where `axon band set` goes: the band, and the event store that keeps the band's schedules between commands.
struct BandSetTarget: ParsableArguments {
    @OptionGroup var band: BandDeviceOptions

    @Option(help: "The event store (SQLite) that keeps the band's schedules between commands (axon band sync's too).")
    var out = "axon-events.sqlite"
}
