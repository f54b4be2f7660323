/// The bytes between Axon and an ELM327 dongle: a serial line (a USB adapter, an rfcomm port, a pty), a TCP socket
/// (Wi-Fi dongles, the emulator) or, through a Bluetooth module, the dongle's serial-over-GATT service. The ELM327
/// client (``ELM327Client``) talks only through this protocol, so a new transport is one more conformance.
///
/// Over Bluetooth LE, ``BLESerialLink`` writes to the dongle's write characteristic (0xFFF2, 0xFFE1 or 0x2AF1) and
/// returns notification bytes (0xFFF1, 0xFFE1 or 0x2AF0) from ``read(deadline:)``; nothing else in AxonOBD differs.
///
/// Threading contract: a link is not thread-safe; one owner at a time calls it (``ELM327Client`` calls it under its
/// own lock, one command in flight). `close()` may be called from the owner only.
public protocol OBDByteLink: AnyObject {
    /// A human-readable name of the endpoint ("/dev/ttyUSB0", "tcp:127.0.0.1:35000").
    var endpoint: String { get }
    /// Opens the link. Calling it on an open link reopens it.
    func open() throws(OBDLinkError)
    /// Writes all of `bytes`, waiting at most until `deadline` (``AxonStreams/HostClock`` seconds).
    func write(_ bytes: [UInt8], deadline: Double) throws(OBDLinkError)
    /// Returns the bytes available now, waiting until at least one arrives or `deadline` passes
    /// (``AxonDevices/ByteLinkError/timeout(endpoint:seconds:)``). Never returns an empty array.
    func read(deadline: Double) throws(OBDLinkError) -> [UInt8]
    /// Closes the link; idempotent.
    func close()
}
