import ArgumentParser
import AxonBluetooth
import AxonDevices
import AxonOpenBCI

/// `--device ganglion:NAME|ADDRESS`: an OpenBCI Ganglion through BlueZ.
enum GanglionOptions {
    /// The selector of a `ganglion:` device argument, `nil` for any other kind.
    static func selector(_ device: String) throws -> String? {
        guard device.hasPrefix("ganglion:") else { return nil }
        let selector = String(device.dropFirst("ganglion:".count))
        guard !selector.isEmpty else {
            throw ValidationError("--device ganglion:NAME or ganglion:ADDRESS, e.g. ganglion:Ganglion-1a2b")
        }
        return selector
    }

    /// A transport that finds the board (discovering by the Ganglion service 0xFE84) and keeps it connected.
    static func transport(selector: String, bus: String?) async throws -> BlueZTransport {
        let central = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
        return BlueZTransport(
            central: central,
            configuration: .init(
                device: selector,
                discovery: DiscoveryFilter(serviceUUIDs: [BluetoothUUID(stringLiteral: GanglionPacket.service)])))
    }

    /// One line of the source's counts.
    static func summary(_ state: GanglionSourceState) -> String {
        "  Ganglion: \(state.packets) packets, \(state.frames) frames, \(state.lostPackets) lost, \(state.rejected) "
            + "rejected, \(state.packetsWithoutReference) before a reference; accelerometer counts "
            + "\(state.accelerometer.map(String.init).joined(separator: ", "))"
    }
}
