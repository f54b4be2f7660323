/// One EEG notification of a Muse: 20 bytes = the packet index (uint16, big-endian) and 12 consecutive samples of
/// one channel, 12 bits each, packed big-endian (two samples in three bytes). µV = 0.48828125 × (raw − 2048), so
/// raw 0…4095 spans −1000…+999.5 µV in steps of 0.488 µV. 256 samples per second per channel.
///
/// Threading: a value type; share freely.
public struct MuseEEGPacket: Sendable, Hashable {
    /// Bytes in a notification.
    public static let size = 20
    /// Samples per notification.
    public static let samplesPerPacket = 12
    /// µV per count.
    public static let microvoltsPerCount = 0.48828125
    /// The count of 0 µV.
    public static let offset = 2048
    /// Samples per second per channel.
    public static let sampleRate = 256.0

    /// The packet index (wraps at 65536).
    public var index: UInt16
    /// The 12 raw samples, 0…4095.
    public var raw: [UInt16]

    /// A packet from its fields; `raw` must hold 12 values ≤ 4095 (programmer error otherwise).
    public init(index: UInt16, raw: [UInt16]) {
        precondition(raw.count == Self.samplesPerPacket && raw.allSatisfy { $0 <= 4095 })
        self.index = index
        self.raw = raw
    }

    /// Reads a notification; throws ``MuseError/wrongLength(_:)`` unless it has 20 bytes.
    public init(bytes: [UInt8]) throws(MuseError) {
        guard bytes.count == Self.size else { throw .wrongLength(bytes.count) }
        index = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        raw = (0..<Self.samplesPerPacket).map { Self.sample($0, in: bytes) }
    }

    /// Sample `k` (0…11) of a 20-byte notification, without decoding the rest.
    @inline(__always)
    public static func sample(_ k: Int, in bytes: [UInt8]) -> UInt16 {
        let byte = 2 + (k / 2) * 3
        return k % 2 == 0
            ? UInt16(bytes[byte]) << 4 | UInt16(bytes[byte + 1]) >> 4
            : UInt16(bytes[byte + 1] & 0x0F) << 8 | UInt16(bytes[byte + 2])
    }

    /// The samples in µV.
    public var microvolts: [Double] { raw.map { Self.microvolts(raw: $0) } }

    /// µV of one raw sample.
    @inline(__always)
    public static func microvolts(raw: UInt16) -> Double { microvoltsPerCount * (Double(raw) - Double(offset)) }

    /// The raw sample nearest to `microvolts`, clamped to 0…4095.
    public static func raw(microvolts: Double) -> UInt16 {
        UInt16(min(max((microvolts / microvoltsPerCount + Double(offset)).rounded(), 0), 4095))
    }

    /// The 20 bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = [UInt8(index >> 8), UInt8(index & 0xFF)]
        for pair in stride(from: 0, to: Self.samplesPerPacket, by: 2) {
            let first = raw[pair]
            let second = raw[pair + 1]
            out += [UInt8(first >> 4), UInt8((first & 0x0F) << 4 | second >> 8), UInt8(second & 0xFF)]
        }
        return out
    }
}
