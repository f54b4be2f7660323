import AxonDevices

/// An ELM327 dongle on a serial device: a USB adapter (`/dev/ttyUSB0`), a Bluetooth classic rfcomm port
/// (`/dev/rfcomm0`) or a pseudo-terminal (the emulator's pty). The serial line itself is
/// ``AxonDevices/SerialPort``, shared with the other serial adapters.
///
/// Threading contract: see ``OBDByteLink`` — one owner at a time.
public typealias SerialLink = SerialPort

extension SerialPort: OBDByteLink {}
