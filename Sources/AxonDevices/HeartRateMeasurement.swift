/// One Heart Rate Measurement (GATT characteristic 0x2A37 of the Heart Rate service 0x180D), decoded.
///
///     let hr = try HeartRateMeasurement(decoding: [0x19, 0x96, 0x00, 0xD2, 0x04, 0x00, 0x03])
///     // hr.beatsPerMinute == 150, hr.energyExpended == 1234, hr.rrIntervals == [0.75]
///
/// Threading: a value type; share freely. Decoding is O(n) in the packet length and allocates the RR array.
public struct HeartRateMeasurement: Sendable, Hashable, Codable {
    /// What the sensor says about skin contact (flags bits 1–2).
    public enum SensorContact: String, Sendable, Hashable, Codable {
        /// Bit 2 clear: the sensor does not report contact.
        case notSupported
        /// Bits 2 and 1 set: supported and detected.
        case detected
        /// Bit 2 set, bit 1 clear: supported, no contact right now.
        case notDetected
    }

    /// The flags byte as received (bits 5–7 are reserved and ignored).
    public var flags: UInt8
    /// Beats per minute (from a UInt8 or, with flags bit 0, a UInt16 field).
    public var beatsPerMinute: Int
    /// Skin contact.
    public var sensorContact: SensorContact
    /// Cumulative energy expended in kilojoules, when flags bit 3 is set.
    public var energyExpended: Int?
    /// RR intervals in seconds (UInt16 in units of 1/1024 s), oldest first; empty when flags bit 4 is clear.
    public var rrIntervals: [Double]

    /// Decodes a notification value.
    ///
    /// - Throws: ``HeartRateMeasurementError`` when the packet is empty, shorter than its flags promise, or its
    ///   RR field has an odd number of bytes (or none although bit 4 says it is present).
    public init(decoding bytes: [UInt8]) throws(HeartRateMeasurementError) {
        guard let flags = bytes.first else { throw .empty }
        self.flags = flags
        let wide = flags & 0x01 != 0
        let hasEnergy = flags & 0x08 != 0
        let hasRR = flags & 0x10 != 0
        var index = 1
        let fixed = 1 + (wide ? 2 : 1) + (hasEnergy ? 2 : 0)
        guard bytes.count >= fixed else { throw .tooShort(length: bytes.count, needed: fixed, flags: flags) }
        if wide {
            beatsPerMinute = Int(bytes[1]) | Int(bytes[2]) << 8
            index = 3
        } else {
            beatsPerMinute = Int(bytes[1])
            index = 2
        }
        switch (flags >> 1) & 0x03 {
        case 0b11: sensorContact = .detected
        case 0b10: sensorContact = .notDetected
        default: sensorContact = .notSupported
        }
        if hasEnergy {
            energyExpended = Int(bytes[index]) | Int(bytes[index + 1]) << 8
            index += 2
        } else {
            energyExpended = nil
        }
        let rest = bytes.count - index
        if hasRR {
            guard rest > 0, rest % 2 == 0 else { throw .badRRField(bytes: rest) }
            rrIntervals = stride(from: index, to: bytes.count, by: 2).map { (at: Int) -> Double in
                let ticks: Int = Int(bytes[at]) | Int(bytes[at + 1]) << 8
                return Double(ticks) / 1024
            }
        } else {
            guard rest == 0 else { throw .trailingBytes(count: rest) }
            rrIntervals = []
        }
    }

    /// Encodes a measurement (the simulators' side): the flags pick the fields, as in the decoder.
    public static func encode(
        beatsPerMinute: Int, sixteenBit: Bool = false, contact: SensorContact = .notSupported,
        energyExpended: Int? = nil, rrUnits: [UInt16] = []
    ) -> [UInt8] {
        var flags: UInt8 = sixteenBit ? 0x01 : 0
        switch contact {
        case .detected: flags |= 0x06
        case .notDetected: flags |= 0x04
        case .notSupported: break
        }
        if energyExpended != nil { flags |= 0x08 }
        if !rrUnits.isEmpty { flags |= 0x10 }
        var bytes = [flags]
        if sixteenBit {
            bytes += [UInt8(beatsPerMinute & 0xFF), UInt8((beatsPerMinute >> 8) & 0xFF)]
        } else {
            bytes.append(UInt8(clamping: beatsPerMinute))
        }
        if let energy = energyExpended { bytes += [UInt8(energy & 0xFF), UInt8((energy >> 8) & 0xFF)] }
        for rr in rrUnits { bytes += [UInt8(rr & 0xFF), UInt8(rr >> 8)] }
        return bytes
    }
}

/// Why a Heart Rate Measurement value could not be decoded.
///
/// Threading: a value type; share freely.
public enum HeartRateMeasurementError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A zero-length value.
    case empty
    /// Fewer bytes than the flags require for heart rate and energy.
    case tooShort(length: Int, needed: Int, flags: UInt8)
    /// Flags bit 4 is set but the RR field is empty or has an odd number of bytes.
    case badRRField(bytes: Int)
    /// Bytes after the last field the flags announce.
    case trailingBytes(count: Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .empty: "empty heart rate measurement"
        case .tooShort(let length, let needed, let flags):
            "heart rate measurement of \(length) bytes; flags 0x\(String(flags, radix: 16)) need \(needed)"
        case .badRRField(let bytes): "RR-interval field of \(bytes) bytes (must be a positive multiple of 2)"
        case .trailingBytes(let count): "\(count) bytes after the last field the flags announce"
        }
    }
}
