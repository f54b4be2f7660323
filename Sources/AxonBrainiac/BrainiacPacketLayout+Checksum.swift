extension BrainiacPacketLayout {
    /// CRC-8 of `bytes`: polynomial 0x07, initial value 0x00, no reflection, no final XOR (the catalogue's
    /// "CRC-8/SMBUS"; its check value, the CRC of the ASCII bytes `123456789`, is 0xF4).
    ///
    /// It detects every error of up to 8 consecutive bits and lets 1 in 256 random notifications through, which
    /// the version, type and length checks before it shrink further.
    ///
    /// Threading: pure; any thread. Allocates nothing.
    /// - Complexity: O(bytes), one table lookup per byte.
    @inlinable
    public static func crc8(_ bytes: UnsafeRawBufferPointer) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc = crc8Table[Int(crc ^ byte)]
        }
        return crc
    }

    /// CRC-8 of the bytes of an array; the same as the buffer-pointer form.
    public static func crc8(_ bytes: [UInt8]) -> UInt8 {
        bytes.withUnsafeBytes { crc8($0) }
    }

    /// Writes the CRC-8 of `buffer[0 ..< length - 1]` into `buffer[length - 1]`, sealing a notification of
    /// `length` bytes (tools and the simulator use it to build deliberately malformed but checksummed packets).
    ///
    /// Threading: touches only `buffer`. Does nothing when `length` is outside `1...buffer.count`.
    public static func seal(_ buffer: UnsafeMutableRawBufferPointer, length: Int) {
        guard length >= 1, length <= buffer.count else { return }
        buffer[length - 1] = crc8(UnsafeRawBufferPointer(rebasing: buffer[0..<(length - 1)]))
    }

    /// The 256-entry table of the CRC-8 above, built once.
    @usableFromInline
    static let crc8Table: [UInt8] = (0..<256).map { index in
        var crc = UInt8(index)
        for _ in 0..<8 {
            crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1
        }
        return crc
    }
}
