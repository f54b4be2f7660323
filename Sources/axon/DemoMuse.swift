import AxonMuse

extension Axon.Demo {
    /// A Muse through BlueZ: TP9, AF7, AF8 and TP10 (preset p21) at 256 Hz through the engine.
    func runMuse(selector: String) async throws {
        let transport = try await BluetoothOptions.transport(
            selector: selector, bus: bus, service: MuseGATTProfile.service, kind: "Muse", searchSeconds: searchSeconds)
        let source = try MuseSource(transport: transport, preset: "p21")
        try await runBluetoothEEG(
            source: source, timeline: source.timelineConfiguration, transport: transport,
            title: "Muse \(selector), preset p21"
        ) { MuseOptions.summary(source.state()) }
    }
}
