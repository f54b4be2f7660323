import Testing

@testable import AxonScales

/// One Body Composition vector: the bytes and what they mean, computed by hand from the field table.
struct CompositionVector: Sendable, CustomStringConvertible {
    var hex: String
    var fat: Double? = 25.0
    var time: Int? = nil
    var user: Int? = nil
    var basalKJ: Double? = nil
    var musclePercent: Double? = nil
    var muscleMass: Double? = nil
    var fatFree: Double? = nil
    var softLean: Double? = nil
    var water: Double? = nil
    var impedance: Double? = nil
    var weight: Double? = nil
    var height: Double? = nil
    var description: String { hex }
}

/// 0x00FA = 250 → 25.0 %; 0x1B10 = 6928 kJ; 0x017E = 38.2 %; 0x1F40 = 8000 × 0.005 = 40.0 kg;
/// 0x2E60 = 11 872 → 59.36 kg; 0x2BE0 = 11 232 → 56.16 kg; 0x2170 = 8560 → 42.8 kg; 0x1403 = 5123 → 512.3 Ω;
/// 0x3CA0 → 77.6 kg or 155.20 lb = 70.397 535 824 kg; 0x06D6 = 1750 → 1.750 m or 175.0 in = 4.445 m.
let compositionVectors: [CompositionVector] = [
    CompositionVector(hex: "00 00 FA 00"),
    CompositionVector(hex: "00 00 FF FF", fat: nil),
    CompositionVector(hex: "02 00 FA 00 E9 07 0B 16 08 1E 00", time: 1_763_800_200),
    CompositionVector(hex: "04 00 FA 00 03", user: 3),
    CompositionVector(hex: "08 00 FA 00 10 1B", basalKJ: 6928),
    CompositionVector(hex: "10 00 FA 00 7E 01", musclePercent: 38.2),
    CompositionVector(hex: "20 00 FA 00 40 1F", muscleMass: 40.0),
    CompositionVector(hex: "40 00 FA 00 60 2E", fatFree: 59.36),
    CompositionVector(hex: "80 00 FA 00 E0 2B", softLean: 56.16),
    CompositionVector(hex: "00 01 FA 00 70 21", water: 42.8),
    CompositionVector(hex: "00 02 FA 00 03 14", impedance: 512.3),
    CompositionVector(hex: "00 04 FA 00 A0 3C", weight: 77.6),
    CompositionVector(hex: "00 08 FA 00 D6 06", height: 1.75),
    CompositionVector(hex: "01 04 FA 00 A0 3C", weight: 70.397535824),
    CompositionVector(hex: "01 08 FA 00 D6 06", height: 4.445),
    CompositionVector(hex: "01 01 FA 00 70 21", water: 38.827506872),  // 85.60 lb
    CompositionVector(
        hex: "FE 0F FA 00 E9 07 0B 16 08 1E 00 03 10 1B 7E 01 40 1F 60 2E E0 2B 70 21 03 14 A0 3C D6 06",
        time: 1_763_800_200, user: 3, basalKJ: 6928, musclePercent: 38.2, muscleMass: 40.0, fatFree: 59.36,
        softLean: 56.16, water: 42.8, impedance: 512.3, weight: 77.6, height: 1.75),
]

struct BodyCompositionTests {
    @Test(arguments: compositionVectors) func everyFieldDecodes(_ v: CompositionVector) throws {
        let packet = try BodyCompositionPacket(decoding: hex(v.hex))
        #expect(packet.bytes == hex(v.hex), "encoding gives the same bytes back")
        let m = BodyCompositionMeasurement(packets: [packet])
        #expect(close(m.bodyFatPercent, v.fat))
        #expect(m.timestamp?.unixTime == v.time)
        #expect(m.userID.map(Int.init) == v.user)
        #expect(close(m.basalMetabolismKJ, v.basalKJ))
        #expect(close(m.musclePercent, v.musclePercent))
        #expect(close(m.muscleMassKg, v.muscleMass))
        #expect(close(m.fatFreeMassKg, v.fatFree))
        #expect(close(m.softLeanMassKg, v.softLean))
        #expect(close(m.bodyWaterMassKg, v.water))
        #expect(close(m.impedanceOhm, v.impedance))
        #expect(close(m.weightKg, v.weight))
        #expect(close(m.heightMeters, v.height))
    }

    @Test(arguments: compositionVectors) func aByteTooFewOrTooManyIsATypedError(_ v: CompositionVector) {
        let bytes = hex(v.hex)
        #expect(
            problem { _ = try BodyCompositionPacket(decoding: Array(bytes.dropLast())) }
                == .tooShort(needed: bytes.count, got: bytes.count - 1))
        #expect(
            problem { _ = try BodyCompositionPacket(decoding: bytes + [0]) }
                == .tooLong(expected: bytes.count, got: bytes.count + 1))
    }

    @Test func everyFlagCombinationHasTheLengthItAnnounces() throws {
        // All 4096 combinations of bits 0–11: a packet of zeros of the announced length decodes (dates of zeros
        // are "unknown") and encodes back to the same flags.
        for flags in UInt16(0)..<4096 {
            var bytes = [UInt8(flags & 0xFF), UInt8(flags >> 8)]
            bytes += [UInt8](repeating: 0, count: BodyCompositionPacket.length(flags: flags) - 2)
            let packet = try BodyCompositionPacket(decoding: bytes)
            #expect(packet.flags == flags)
            #expect(packet.bytes == bytes)
        }
    }

    @Test func multiPacketMeasurementIsJoined() throws {
        var assembler = BodyCompositionAssembler()
        // Packet 1: bit 12 + time stamp + user + muscle %; packet 2: water mass + impedance + weight.
        #expect(try assembler.feed(hex("16 10 FA 00 E9 07 0B 16 08 1E 00 03 7E 01")) == nil)
        #expect(assembler.isPending)
        let m = try #require(try assembler.feed(hex("00 07 FA 00 70 21 03 14 A0 3C")))
        #expect(!assembler.isPending)
        #expect(m.packetCount == 2)
        #expect(m.bodyFatPercent == 25.0 && m.timestamp?.unixTime == 1_763_800_200 && m.userID == 3)
        #expect(close(m.musclePercent, 38.2) && close(m.bodyWaterMassKg, 42.8) && close(m.impedanceOhm, 512.3))
        #expect(close(m.weightKg, 77.6))
        let composition = m.bodyComposition()
        // 42.8 / 77.6 × 100 = 55.154 639 17… %
        #expect(close(composition.waterPercent, 55.15463917525773))
        #expect(composition.fatPercent == 25.0 && composition.musclePercent == 38.2)
    }

    @Test func boneMassIsFatFreeMinusSoftLean() throws {
        let m = BodyCompositionMeasurement(packets: [
            try BodyCompositionPacket(decoding: hex("C0 04 FA 00 60 2E E0 2B A0 3C"))
        ])
        #expect(close(m.bodyComposition().boneMassKg, 3.2))  // 59.36 − 56.16
    }

    @Test func brokenPacketsAreTypedErrorsAndDropThePartialMeasurement() throws {
        var assembler = BodyCompositionAssembler()
        #expect(problem { _ = try BodyCompositionPacket(decoding: hex("00 20 FA 00")) } == .reservedFlags(0x2000))
        #expect(try assembler.feed(hex("00 10 FA 00")) == nil)
        #expect(problem { _ = try assembler.feed(hex("00 04 FA 00 A0")) } == .tooShort(needed: 6, got: 5))
        #expect(!assembler.isPending)
        for _ in 1..<BodyCompositionAssembler.maximumPackets { #expect(try assembler.feed(hex("00 10 FA 00")) == nil) }
        #expect(problem { _ = try assembler.feed(hex("00 10 FA 00")) } != nil)
        #expect(!assembler.isPending)
    }
}
