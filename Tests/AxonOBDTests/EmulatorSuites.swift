import Testing

/// Every test that runs elm327-emulator, one at a time: emulators started side by side on two cores slow each other's
/// answers, and the 30 s continuous-update test counts samples.
@Suite("OBD against elm327-emulator", .serialized, .enabled(if: EmulatorPeer.available))
enum EmulatorSuites {}
