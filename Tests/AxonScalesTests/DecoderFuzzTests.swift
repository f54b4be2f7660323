import AxonStreams
import Testing

@testable import AxonScales

/// Seeded random and mutated byte strings through every decoder: never a crash, always a value or a typed
/// error, and whatever decodes encodes back to the same bytes.
struct DecoderFuzzTests {
    static let iterations = 20_000

    /// Valid values to mutate, per decoder.
    static let seeds: [[UInt8]] =
        weightVectors.map(\.bytes) + compositionVectors.map { hex($0.hex) }
        + [
            ScaleResponse.record(
                index: 7,
                ScaleRecord(
                    time: 1_763_800_200, weightKg: 71.4,
                    bodyComposition:
                        SimulatedScale.Configuration.hs5Composition(weightKg: 71.4))
            ).bytes,
            ScaleResponse.users([HS5UserSlot(position: 2, serialNumber: 99)]).bytes,
            ScaleCommand.createUser(
                HS5User(
                    serialNumber: 5, birthYear: 1990, birthMonth: 1, birthDay: 1, heightCM: 180,
                    isAthlete: true, sex: .female), position: 4
            ).bytes,
            ScaleCommand.memory(from: 3, serialNumber: 9).bytes,
        ]

    func inputs(seed: UInt64) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        var out: [[UInt8]] = []
        for i in 0..<Self.iterations {
            if i % 2 == 0 {
                out.append((0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            } else {
                var bytes = Self.seeds[Int(random.next() % UInt64(Self.seeds.count))]
                for _ in 0..<(1 + Int(random.next() % 3)) {
                    switch random.next() % 4 {
                    case 0 where !bytes.isEmpty:
                        bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                    case 1 where !bytes.isEmpty: bytes.removeLast(Int(random.next() % UInt64(bytes.count)) + 1)
                    case 2: bytes.append(UInt8(truncatingIfNeeded: random.next()))
                    default: if !bytes.isEmpty { bytes[0] ^= 1 << UInt8(random.next() % 8) }
                    }
                }
                out.append(bytes)
            }
        }
        return out
    }

    /// Decodes, and checks a decoded value encodes to the same bytes; returns whether it decoded.
    func check(_ decode: () throws -> [UInt8], _ bytes: [UInt8]) -> Bool {
        do {
            let encoded = try decode()
            #expect(encoded == bytes)
            return true
        } catch {
            #expect(error is ScaleError)
            return false
        }
    }

    @Test func weightMeasurement() {
        var decoded = 0
        for bytes in inputs(seed: 1) where check({ try WeightMeasurement(decoding: bytes).bytes }, bytes) {
            decoded += 1
        }
        #expect(decoded > 100, "mutations of valid vectors still decode sometimes: \(decoded)")
    }

    @Test func bodyCompositionPacketsAndAssembler() {
        var assembler = BodyCompositionAssembler()
        var measurements = 0
        for bytes in inputs(seed: 2) {
            _ = check({ try BodyCompositionPacket(decoding: bytes).bytes }, bytes)
            do {
                if let m = try assembler.feed(bytes) {
                    measurements += 1
                    #expect(m.packetCount >= 1 && m.packetCount <= BodyCompositionAssembler.maximumPackets)
                }
            } catch {
                #expect(!assembler.isPending)
            }
        }
        #expect(measurements > 100)
    }

    @Test func scaleFramesAndCommands() {
        var decoded = 0
        for bytes in inputs(seed: 3) {
            // Weights and percentages are stored in fixed steps, so a decoded response re-encodes exactly.
            if check({ try ScaleResponse(decoding: bytes).bytes }, bytes) { decoded += 1 }
            if check({ try ScaleCommand(decoding: bytes).bytes }, bytes) { decoded += 1 }
        }
        #expect(decoded > 100)
    }

    @Test func weightScaleFeature() {
        for bytes in inputs(seed: 4) {
            let decodes = check(
                {
                    var out: [UInt8] = []
                    let raw = try WeightScaleFeature(decoding: bytes).rawValue
                    for shift in stride(from: 0, to: 32, by: 8) {
                        out.append(UInt8(truncatingIfNeeded: raw >> UInt32(shift)))
                    }
                    return out
                }, bytes)
            #expect(decodes == (bytes.count == 4))
        }
    }
}
