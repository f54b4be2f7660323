/// A fault a ``SimulatedCyton`` puts into its byte stream, at a packet index counted from the start of the stream
/// (packets, not frames: with a Daisy there are two packets per frame).
///
/// Threading: a value type; share freely.
public enum SimulatedCytonFault: Sendable, Hashable {
    /// These bytes are sent after packet `afterPacket` (a radio glitch, a stray reply).
    case garbage(afterPacket: Int, bytes: [UInt8])
    /// Only the first `keep` bytes (1…32) of packet `packet` are sent.
    case truncate(packet: Int, keep: Int)
    /// Packet `packet` is sent with the footer `0x00` instead of `0xC0`.
    case wrongFooter(packet: Int)
    /// Packets `packets` are never sent; their sample numbers are skipped (a lost radio packet).
    case drop(packets: Range<Int>)
}
