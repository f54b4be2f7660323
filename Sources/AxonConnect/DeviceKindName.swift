import AxonBand
import AxonDevices
import AxonMuse
import AxonOBD
import AxonResearchBIT
import AxonScales

/// What a scanned device is, from what it advertises (`axon scan`'s kind column, ``DeviceOpeningError/notFound(kind:selector:seconds:seen:)``'s list):
/// every kind Axon talks to has a name here, so a scan says which command opens each device.
///
/// Threading: a pure function; call it from any thread.
public enum DeviceKindName {
    /// "Muse", "iHealth HS5 scale", "Iwown band", … or "" for a device Axon has no adapter for.
    public static func name(name: String? = nil, services: [BluetoothUUID]) -> String {
        if services.contains(MuseGATTProfile.service) { return "Muse" }
        if services.contains("fe84") { return "OpenBCI Ganglion" }
        if services.contains("8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0") { return "Brainiac" }
        if services.contains(BandGATTProfile.serviceUUID) { return "Iwown band" }
        if services.contains(ResearchBITProfile.researchBITService) { return "ResearchBIT sensor" }
        if services.contains(ResearchBITProfile.nordicService) { return "Nordic dongle (ResearchBIT)" }
        if services.contains(ScaleGATT.service) {
            return ScaleModel.advertised(name: name, services: services).map { "iHealth \($0.rawValue.uppercased()) scale" }
                ?? "iHealth scale"
        }
        if ScaleModel.advertised(name: name, services: services) == .standard { return "weight scale" }
        if BLESerialLink.Profile.known.contains(where: { services.contains($0.service) }) { return "OBD-II dongle (ELM327)" }
        // Polar sensors advertise Heart Rate and Polar's 0xFEEE; the H10 has ECG (`polar:NAME`).
        if services.contains("feee") || (name ?? "").hasPrefix("Polar ") {
            return (name ?? "").hasPrefix("Polar H10") ? "Polar H10" : "Polar sensor"
        }
        if services.contains(BandGATTProfile.heartRateService) { return "heart-rate sensor" }
        if services.contains("1101") {
            // The HS3's Bluetooth Classic serial port (docs/hs3-serial.md); any other serial port has no adapter here.
            return (name ?? "").uppercased().hasPrefix("HS3") ? "iHealth HS3 scale (serial port)" : "serial port"
        }
        return ""
    }
}
