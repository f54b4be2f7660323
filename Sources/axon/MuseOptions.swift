import ArgumentParser
import AxonBluetooth
import AxonDevices
import AxonMuse

/// `--device muse:NAME|ADDRESS`: a Muse headband through BlueZ.
enum MuseOptions {
    /// The selector of a `muse:` device argument, `nil` for any other kind.
    static func selector(_ device: String) throws -> String? {
        try BluetoothOptions.selector(device, kind: "muse", example: "Muse-41D2")
    }

    /// One line of the source's counts.
    static func summary(_ state: MuseSourceState) -> String {
        let s = state.statistics
        return
            "  Muse: \(s.notifications) notifications, \(s.packets) packets, \(s.frames) frames, \(s.missingPackets) "
            + "packet indices missing, \(s.incompletePackets) incomplete, \(s.rejected) rejected; "
            + "\(state.keepAlivesSent) keep-alives; \(state.linkLosses) link losses, start sent \(state.startsSent)×"
            + (state.telemetry.map { "; battery \(fmt($0.batteryPercent, 0)) %" } ?? "")
            + "; accelerometer \(state.accelerometerPackets), gyroscope \(state.gyroscopePackets), "
            + "PPG \(state.ppgNotifications) notifications"
    }
}

/// What a scanned device is, from the services it advertises.
enum DeviceKindName {
    /// "Muse", "OpenBCI Ganglion", "Brainiac" or "" for anything else.
    static func name(services: [BluetoothUUID]) -> String {
        if services.contains(MuseGATTProfile.service) { return "Muse" }
        if services.contains("fe84") { return "OpenBCI Ganglion" }
        if services.contains("8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0") { return "Brainiac" }
        return ""
    }
}
