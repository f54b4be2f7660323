import AxonMuse

/// `muse:NAME|ADDRESS`: a Muse headband through BlueZ.
enum MuseOptions {
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
