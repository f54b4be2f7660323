/// One packet of the iHealth HS3's serial-port stream (Bluetooth Classic, RFCOMM to the Serial Port service
/// 0x1101), as published by openScale's reverse-engineered driver:
/// every packet starts `A0 09 A6`; a fourth byte `28` marks a weight packet (five bytes whose meaning is not
/// known, then the weight as two BCD bytes in 0.1 kg: `08 15` is 81.5 kg, eleven bytes in all); `33` marks a
/// time packet, whose body is not published.
///
/// Threading: a value type; share freely.
public enum HS3SerialPacket: Sendable, Hashable {
    /// A weight in tenths of a kilogram (`08 15` → 815), with the packet's eleven bytes.
    case weight(tenthsOfKg: Int, bytes: [UInt8])
    /// A time packet: its four header bytes (what follows them is not published and is skipped as unframed bytes).
    case time

    /// The three bytes every packet starts with.
    public static let leader: [UInt8] = [0xA0, 0x09, 0xA6]
    /// The fourth byte of a weight packet.
    public static let weightKind: UInt8 = 0x28
    /// The fourth byte of a time packet.
    public static let timeKind: UInt8 = 0x33
    /// A weight packet's length: leader, kind, five unknown bytes, two BCD weight bytes.
    public static let weightPacketLength = 11

    /// The weight in kilograms of a weight packet, `nil` for a time packet.
    public var kilograms: Double? {
        if case .weight(let tenths, _) = self { return Double(tenths) / 10 }
        return nil
    }

    /// The weight in tenths of a kilogram of two BCD bytes (`08 15` → 815), or `nil` when a nibble is above 9.
    public static func tenths(bcd high: UInt8, _ low: UInt8) -> Int? {
        let digits = [high >> 4, high & 0x0F, low >> 4, low & 0x0F]
        guard digits.allSatisfy({ $0 <= 9 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1) }
    }

    /// The eleven bytes of a weight packet for `tenthsOfKg` (0…9999), with `unknown` as bytes 4…8. What a
    /// simulator or a test sends; the inverse of what ``HS3SerialDecoder`` reads.
    public static func weightPacket(tenthsOfKg: Int, unknown: [UInt8] = [0, 0, 0, 0, 0]) -> [UInt8] {
        precondition((0...9999).contains(tenthsOfKg) && unknown.count == 5, "weight 0…999.9 kg, five unknown bytes")
        let digits = [tenthsOfKg / 1000, tenthsOfKg / 100 % 10, tenthsOfKg / 10 % 10, tenthsOfKg % 10].map(UInt8.init)
        return leader + [weightKind] + unknown + [digits[0] << 4 | digits[1], digits[2] << 4 | digits[3]]
    }
}
