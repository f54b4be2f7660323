/// One notification of the OpenBCI Ganglion (OpenBCI "Ganglion Data Format"; service `0xFE84`, notifications on
/// `2d30c082-f39f-4ce6-923f-3484ea480596`, commands written to `…c083…`: `b` start, `s` stop, `z`/`Z` impedance on and
/// off). 20 bytes: an id byte, then 19 bytes whose meaning the id selects:
///
/// | id | content |
/// |---|---|
/// | 0 | raw: 4 channels × int24 big-endian (bytes 1–12), the reference for the deltas that follow |
/// | 1–100 | 18-bit compression: 2 samples × 4 channels of 18-bit deltas, MSB first across bytes 1–18 |
/// | | byte 19: an accelerometer axis (int8) when id % 10 is 1 (X), 2 (Y) or 3 (Z) |
/// | 101–200 | 19-bit compression: 2 samples × 4 channels of 19-bit deltas across bytes 1–19 |
/// | 201–205 | impedance of channel 1–4 (id % 10), 5 = reference: ASCII digits of kΩ ending in `Z` |
///
/// A delta's sign sits in its least significant bit: when that bit is set, the value is negative and every bit above
/// the 18 (19) is one (OpenBCI's `convert18bitAsInt32`/`convert19bitAsInt32`). Each sample is the previous sample
/// minus its delta. µV per count = 1.2 V / (8388607 × 1.5 × 51) × 10⁶; 200 samples per second, two per packet.
///
/// An impedance notification is as long as its text (the firmware sends its serial buffer, 1 + n bytes, not 20):
/// the id, the integer kΩ the firmware computed for the electrode in series with the driven ground (D_G) after its
/// empirical correction, then `Z`. The firmware writes no digit for a value of 0 or less (its `loadInt` prints
/// digits while the value is above 0), so a bare `Z` is a reading of 0.
///
/// Threading: a value type; share freely.
public enum GanglionPacket: Sendable {
    /// Absolute counts of one sample (id 0).
    case raw(counts: [Int32])
    /// Two samples' deltas per channel (`deltas[sample][channel]`), with the packet id and, for ids ending in 1, 2 or
    /// 3, one accelerometer axis (0 = X) and its int8 count.
    case compressed(id: UInt8, deltas: [[Int32]], accelerometer: (axis: Int, count: Int8)?)
    /// An impedance reading: channel 1–4, or 5 for the reference, and the value the board sent (kΩ, electrode in
    /// series with D_G).
    case impedance(channel: Int, value: Int)

    /// The board's service.
    public static let service = "fe84"
    /// The notifying characteristic.
    public static let receive = "2d30c082-f39f-4ce6-923f-3484ea480596"
    /// The characteristic commands are written to.
    public static let send = "2d30c083-f39f-4ce6-923f-3484ea480596"
    /// µV per count.
    public static let microvoltsPerCount = 1.2e6 / (8_388_607 * 1.5 * 51)
    /// Samples per second.
    public static let sampleRate = 200.0

    /// Decodes a notification. Throws ``GanglionPacketError`` for a wrong length, an id the format does not define
    /// and an impedance reading that is not digits (none for 0) ending in `Z`.
    public init(bytes: [UInt8]) throws(GanglionPacketError) {
        guard let id = bytes.first else { throw .wrongLength(0) }
        switch id {
        case 0:
            guard bytes.count >= 13 else { throw .wrongLength(bytes.count) }
            self = .raw(
                counts: (0..<4).map { channel in
                    let at = 1 + 3 * channel
                    let raw = UInt32(bytes[at]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2])
                    return Int32(bitPattern: raw << 8) >> 8
                })
        case 1...200:
            guard bytes.count == 20 else { throw .wrongLength(bytes.count) }
            let width = id <= 100 ? 18 : 19
            let deltas = Self.deltas(Array(bytes[1...]), width: width)
            var accelerometer: (axis: Int, count: Int8)?
            if width == 18, (1...3).contains(Int(id % 10)) {
                accelerometer = (Int(id % 10) - 1, Int8(bitPattern: bytes[19]))
            }
            self = .compressed(id: id, deltas: deltas, accelerometer: accelerometer)
        case 201...205:
            let text = bytes.dropFirst().prefix { $0 != UInt8(ascii: "Z") }
            guard text.count < bytes.count - 1, text.count <= 9, text.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = text.isEmpty ? 0 : Int(String(decoding: text, as: UTF8.self))
            else { throw .malformedImpedance(bytes) }
            self = .impedance(channel: Int(id % 10), value: value)
        default:
            throw .unknownID(id)
        }
    }

    /// Two samples × four channels of `width`-bit deltas, MSB first, with the sign in the least significant bit.
    public static func deltas(_ data: [UInt8], width: Int) -> [[Int32]] {
        var values: [Int32] = []
        var bit = 0
        for _ in 0..<8 {
            var value: UInt32 = 0
            for _ in 0..<width {
                let byte = data[bit / 8]
                value = value << 1 | UInt32((byte >> (7 - UInt8(bit % 8))) & 1)
                bit += 1
            }
            values.append(signed(value, width: width))
        }
        return [Array(values[0..<4]), Array(values[4..<8])]
    }

    /// A `width`-bit delta as a signed count: negative when its least significant bit is set.
    @inline(__always)
    public static func signed(_ value: UInt32, width: Int) -> Int32 {
        value & 1 == 1 ? Int32(bitPattern: value | ~((1 << UInt32(width)) - 1)) : Int32(bitPattern: value)
    }
}
