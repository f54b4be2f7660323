import AxonOpenBCI

/// `ganglion:NAME|ADDRESS`: an OpenBCI Ganglion through BlueZ.
enum GanglionOptions {
    /// One line of the source's counts.
    static func summary(_ state: GanglionSourceState) -> String {
        "  Ganglion: \(state.packets) packets, \(state.frames) frames, \(state.lostPackets) lost, \(state.rejected) "
            + "rejected, \(state.packetsWithoutReference) before a reference; accelerometer counts "
            + "\(state.accelerometer.map(String.init).joined(separator: ", "))"
            + (state.impedanceReadings == 0
                ? ""
                : "; impedance (as the board sends it) "
                    + zip(["1", "2", "3", "4", "ref"], state.impedance).map { "\($0) \($1.map(String.init) ?? "–")" }
                    .joined(separator: ", "))
    }
}
