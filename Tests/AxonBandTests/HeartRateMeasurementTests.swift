import AxonBand
import Testing

/// Heart Rate Measurement (0x2A37): every combination of the flags that shape the packet, against packets written
/// out by hand.
struct HeartRateMeasurementTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let bpm: Int
        let contact: HeartRateMeasurement.SensorContact
        let energy: Int?
        let rr: [Double]
        var testDescription: String { bytes.map { String($0, radix: 16) }.joined(separator: " ") }
    }

    static let vectors: [Vector] = [
        // 8-bit, no contact feature, nothing else.
        Vector(bytes: [0x00, 0x48], bpm: 72, contact: .notSupported, energy: nil, rr: []),
        // protocols.md: contact supported and detected, 72 bpm.
        Vector(bytes: [0x06, 0x48], bpm: 72, contact: .detected, energy: nil, rr: []),
        // Contact supported, not detected.
        Vector(bytes: [0x04, 0x3C], bpm: 60, contact: .notDetected, energy: nil, rr: []),
        // Bit 1 without bit 2: the feature is not supported, whatever bit 1 says.
        Vector(bytes: [0x02, 0x3C], bpm: 60, contact: .notSupported, energy: nil, rr: []),
        // 16-bit value: 0x012C = 300 bpm.
        Vector(bytes: [0x01, 0x2C, 0x01], bpm: 300, contact: .notSupported, energy: nil, rr: []),
        // 16-bit, contact detected.
        Vector(bytes: [0x07, 0x50, 0x00], bpm: 80, contact: .detected, energy: nil, rr: []),
        // 8-bit + energy 0x0102 = 258 kJ.
        Vector(bytes: [0x08, 0x5A, 0x02, 0x01], bpm: 90, contact: .notSupported, energy: 258, rr: []),
        // 16-bit + energy 0xFFFF.
        Vector(bytes: [0x09, 0x64, 0x00, 0xFF, 0xFF], bpm: 100, contact: .notSupported, energy: 65_535, rr: []),
        // protocols.md: 72 bpm, one RR of 0x0400/1024 = 1 s.
        Vector(bytes: [0x10, 0x48, 0x00, 0x04], bpm: 72, contact: .notSupported, energy: nil, rr: [1.0]),
        // 8-bit + two RR: 0x0300 = 0.75 s, 0x0200 = 0.5 s.
        Vector(
            bytes: [0x16, 0x50, 0x00, 0x03, 0x00, 0x02], bpm: 80, contact: .detected, energy: nil, rr: [0.75, 0.5]),
        // 16-bit + RR 0x0100 = 0.25 s.
        Vector(bytes: [0x11, 0xF0, 0x00, 0x00, 0x01], bpm: 240, contact: .notSupported, energy: nil, rr: [0.25]),
        // 8-bit + energy + RR: energy 0x000A = 10 kJ, RR 0x0480 = 1.125 s.
        Vector(bytes: [0x18, 0x35, 0x0A, 0x00, 0x80, 0x04], bpm: 53, contact: .notSupported, energy: 10, rr: [1.125]),
        // protocols.md: 16-bit 150 bpm, energy 1234 kJ, RR 0x0300 = 0.75 s.
        Vector(
            bytes: [0x19, 0x96, 0x00, 0xD2, 0x04, 0x00, 0x03], bpm: 150, contact: .notSupported, energy: 1234,
            rr: [0.75]),
        // Everything: 16-bit, contact detected, energy 0x0203 = 515, RR 0x0200 and 0x0600 = 0.5 and 1.5 s.
        Vector(
            bytes: [0x1F, 0x41, 0x00, 0x03, 0x02, 0x00, 0x02, 0x00, 0x06], bpm: 65, contact: .detected, energy: 515,
            rr: [0.5, 1.5]),
        // Reserved bits 5–7 set: ignored.
        Vector(bytes: [0xE0, 0x48], bpm: 72, contact: .notSupported, energy: nil, rr: []),
        // Contact not detected + energy + RR, 8-bit.
        Vector(bytes: [0x1C, 0x46, 0x01, 0x00, 0x00, 0x04], bpm: 70, contact: .notDetected, energy: 1, rr: [1.0]),
    ]

    @Test(arguments: vectors) func decodesHandComputedPackets(_ v: Vector) throws {
        let m = try HeartRateMeasurement(decoding: v.bytes)
        #expect(m.beatsPerMinute == v.bpm)
        #expect(m.sensorContact == v.contact)
        #expect(m.energyExpended == v.energy)
        #expect(m.rrIntervals == v.rr)
    }

    /// Every one of the 32 combinations of flags bits 0–4 round-trips through the encoder and decoder.
    @Test func everyFlagCombinationRoundTrips() throws {
        for flags in 0..<32 {
            let wide = flags & 1 != 0
            let contact: HeartRateMeasurement.SensorContact =
                switch (flags >> 1) & 3 {
                case 3: .detected;
                case 2: .notDetected;
                default: .notSupported
                }
            let energy = flags & 8 != 0 ? 4321 : nil
            let rr: [UInt16] = flags & 16 != 0 ? [1024, 512] : []
            let bytes = HeartRateMeasurement.encode(
                beatsPerMinute: wide ? 260 : 61, sixteenBit: wide, contact: contact, energyExpended: energy, rrUnits: rr
            )
            #expect(bytes.count == 1 + (wide ? 2 : 1) + (energy == nil ? 0 : 2) + rr.count * 2)
            let m = try HeartRateMeasurement(decoding: bytes)
            #expect(m.beatsPerMinute == (wide ? 260 : 61))
            #expect(m.sensorContact == contact)
            #expect(m.energyExpended == energy)
            #expect(m.rrIntervals == rr.map { Double($0) / 1024 })
        }
    }

    @Test(arguments: [
        ([UInt8](), HeartRateMeasurementError.empty),
        ([0x00], .tooShort(length: 1, needed: 2, flags: 0x00)),
        ([0x01, 0x48], .tooShort(length: 2, needed: 3, flags: 0x01)),
        ([0x08, 0x48, 0x01], .tooShort(length: 3, needed: 4, flags: 0x08)),
        ([0x09, 0x48, 0x00, 0x01], .tooShort(length: 4, needed: 5, flags: 0x09)),
        ([0x10, 0x48], .badRRField(bytes: 0)),
        ([0x10, 0x48, 0x00], .badRRField(bytes: 1)),
        ([0x18, 0x48, 0x00, 0x00, 0x00, 0x04, 0x00], .badRRField(bytes: 3)),
        ([0x00, 0x48, 0x00], .trailingBytes(count: 1)),
    ])
    func invalidLengthsAreTypedErrors(_ bytes: [UInt8], _ expected: HeartRateMeasurementError) {
        #expect(throws: expected) { try HeartRateMeasurement(decoding: bytes) }
    }
}
