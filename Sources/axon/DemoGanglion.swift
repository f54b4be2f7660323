import AxonDevices
import AxonOpenBCI

extension Axon.Demo {
    /// An OpenBCI Ganglion through BlueZ: its 4 channels at 200 Hz through the engine.
    func runGanglion(selector: String) async throws {
        let transport = try await BluetoothOptions.transport(
            selector: selector, bus: bus, service: BluetoothUUID(stringLiteral: GanglionPacket.service),
            kind: "OpenBCI Ganglion", searchSeconds: searchSeconds)
        let source = GanglionSource(transport: transport)
        try await runBluetoothEEG(
            source: source, timeline: source.timelineConfiguration, transport: transport,
            title: "OpenBCI Ganglion \(selector)"
        ) { GanglionOptions.summary(source.state()) }
    }
}
