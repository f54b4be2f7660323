/// Joins multi-packet Body Composition Measurements: packets with the Multiple Packet bit wait for the packet that
/// ends the measurement (bit clear).
///
/// Threading: one instance per characteristic, used on the transport's delivery thread only.
public struct BodyCompositionAssembler: Sendable {
    private var pending: [BodyCompositionPacket] = []
    /// The most packets one measurement may take before the assembler gives up on it (a stuck bit 12).
    public static let maximumPackets = 8

    /// An assembler with nothing pending.
    public init() {}

    /// Whether part of a measurement is waiting for its next packet.
    public var isPending: Bool { !pending.isEmpty }

    /// Decodes one indication; returns the measurement when it is complete, `nil` while more packets are due.
    ///
    /// - Throws: ``ScaleError/malformed(what:problem:)`` for a packet that does not decode (the measurement in
    ///   progress is dropped with it) or a measurement longer than ``maximumPackets``.
    public mutating func feed(_ bytes: [UInt8]) throws(ScaleError) -> BodyCompositionMeasurement? {
        let packet: BodyCompositionPacket
        do throws(ScaleError) {
            packet = try BodyCompositionPacket(decoding: bytes)
        } catch {
            pending.removeAll()
            throw error
        }
        pending.append(packet)
        if packet.continues {
            guard pending.count < Self.maximumPackets else {
                pending.removeAll()
                throw .malformed(
                    what: "Body Composition Measurement",
                    problem: .outOfRange("more than \(Self.maximumPackets) packets in one measurement"))
            }
            return nil
        }
        defer { pending.removeAll() }
        return BodyCompositionMeasurement(packets: pending)
    }

    /// Drops a partial measurement (the link went down between its packets).
    public mutating func reset() { pending.removeAll() }
}
