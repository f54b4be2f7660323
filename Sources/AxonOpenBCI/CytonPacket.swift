/// One 33-byte packet of the OpenBCI Cyton as its USB dongle delivers it (OpenBCI "Cyton Data Format"):
///
/// | byte | content |
/// |---|---|
/// | 0 | header `0xA0` |
/// | 1 | sample number, 0…255, wrapping |
/// | 2…25 | 8 channels × 24-bit two's complement, big-endian (ADS1299 counts) |
/// | 26…31 | 6 aux bytes: with footer `0xC0`, accelerometer X, Y, Z as 16-bit two's complement big-endian |
/// | 32 | footer `0xC0`…`0xC6` (`0xC0`: the aux bytes are accelerometer data) |
///
/// With a Daisy module, odd sample numbers carry the board's channels 1–8 and even ones the Daisy's 9–16.
///
/// Threading: a value type; share freely.
public struct CytonPacket: Sendable, Hashable {
    /// Bytes in a packet.
    public static let size = 33
    /// The first byte of every packet.
    public static let header: UInt8 = 0xA0
    /// The footers a Cyton sends (`0xC0` standard with accelerometer aux, `0xC1`…`0xC6` other aux formats).
    public static let footers: ClosedRange<UInt8> = 0xC0...0xC6
    /// The footer of a packet whose aux bytes are accelerometer data.
    public static let accelerometerFooter: UInt8 = 0xC0
    /// Channels in one packet.
    public static let channelCount = 8
    /// The sample number counts modulo this.
    public static let sampleNumberModulus: UInt64 = 256
    /// g per accelerometer count (LIS3DH at ±4 g, 12-bit left-justified: 0.002 / 2⁴ g).
    public static let accelerometerScale = 0.002 / 16

    /// The packet's sample number.
    public var sampleNumber: UInt8
    /// The eight channels in ADS1299 counts (sign-extended 24-bit).
    public var counts: [Int32]
    /// The six aux bytes as sent.
    public var aux: [UInt8]
    /// The footer byte.
    public var footer: UInt8

    /// A packet from its fields. `counts` must hold 8 values in −2²³…2²³−1, `aux` 6 bytes (programmer errors).
    public init(sampleNumber: UInt8, counts: [Int32], aux: [UInt8] = [0, 0, 0, 0, 0, 0], footer: UInt8 = 0xC0) {
        precondition(counts.count == Self.channelCount && aux.count == 6, "8 channels and 6 aux bytes")
        self.sampleNumber = sampleNumber
        self.counts = counts
        self.aux = aux
        self.footer = footer
    }

    /// Reads a packet from exactly 33 bytes starting at `bytes[0]`; `nil` unless the header is `0xA0` and the
    /// footer one of `0xC0`…`0xC6`. O(1).
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size, bytes[0] == Self.header, Self.footers.contains(bytes[32]) else { return nil }
        sampleNumber = bytes[1]
        counts = (0..<Self.channelCount).map { Self.int24(bytes, at: 2 + 3 * $0) }
        aux = Array(bytes[26..<32])
        footer = bytes[32]
    }

    /// The accelerometer reading in g (X, Y, Z) when the footer says the aux bytes carry one and it is not all
    /// zeros (the firmware fills them on about one packet in ten), else `nil`.
    public var acceleration: (x: Double, y: Double, z: Double)? {
        guard footer == Self.accelerometerFooter, aux.contains(where: { $0 != 0 }) else { return nil }
        func axis(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(aux[i]) << 8 | UInt16(aux[i + 1]))) }
        return (axis(0) * Self.accelerometerScale, axis(2) * Self.accelerometerScale, axis(4) * Self.accelerometerScale)
    }

    /// The 33 bytes of the packet. Counts outside the 24-bit range are clamped to it.
    public var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.size)
        out[0] = Self.header
        out[1] = sampleNumber
        for (channel, count) in counts.enumerated() {
            let clamped = UInt32(bitPattern: min(max(count, -(1 << 23)), (1 << 23) - 1))
            out[2 + 3 * channel] = UInt8(truncatingIfNeeded: clamped >> 16)
            out[3 + 3 * channel] = UInt8(truncatingIfNeeded: clamped >> 8)
            out[4 + 3 * channel] = UInt8(truncatingIfNeeded: clamped)
        }
        out.replaceSubrange(26..<32, with: aux)
        out[32] = footer
        return out
    }

    /// The aux bytes that carry an accelerometer reading in g (clamped to the 16-bit range).
    public static func accelerometerAux(x: Double, y: Double, z: Double) -> [UInt8] {
        [x, y, z].flatMap { value -> [UInt8] in
            let count = Int16(clamping: Int((value / accelerometerScale).rounded()))
            let bits = UInt16(bitPattern: count)
            return [UInt8(bits >> 8), UInt8(bits & 0xFF)]
        }
    }

    /// Sign-extends the 24-bit big-endian value at `offset`.
    @inline(__always)
    static func int24(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        let raw = UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2])
        return Int32(bitPattern: raw << 8) >> 8
    }
}
