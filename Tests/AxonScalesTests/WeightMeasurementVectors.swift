/// Weight Measurement (0x2A9D) byte vectors for all 16 flag combinations, computed by hand from the field table:
/// weight 0x3CA0 = 15 520 → 77.600 kg (× 0.005) or 155.20 lb (× 0.01) = 70.397 535 824 kg; time stamp
/// E9 07 0B 16 08 1E 00 = 2025-11-22 08:30:00 UTC = 1 763 800 200; user 1; BMI 0x00FD = 25.3;
/// height 0x06D6 = 1750 → 1.750 m, or 175.0 in = 4.445 m.
struct WeightVector: Sendable, CustomStringConvertible {
    var hex: String
    var imperial: Bool
    var kilograms: Double
    var time: Int?
    var user: Int?
    var bmi: Double?
    var heightMeters: Double?
    var description: String { hex }
    var bytes: [UInt8] { hex.split(separator: " ").map { UInt8($0, radix: 16)! } }
}

let weightVectors: [WeightVector] = [
    WeightVector(hex: "00 A0 3C", imperial: false, kilograms: 77.6, time: nil, user: nil, bmi: nil, heightMeters: nil),
    WeightVector(
        hex: "01 A0 3C", imperial: true, kilograms: 70.397535824, time: nil, user: nil, bmi: nil, heightMeters: nil),
    WeightVector(
        hex: "02 A0 3C E9 07 0B 16 08 1E 00", imperial: false, kilograms: 77.6, time: 1_763_800_200, user: nil,
        bmi: nil, heightMeters: nil),
    WeightVector(
        hex: "03 A0 3C E9 07 0B 16 08 1E 00", imperial: true, kilograms: 70.397535824, time: 1_763_800_200, user: nil,
        bmi: nil, heightMeters: nil),
    WeightVector(hex: "04 A0 3C 01", imperial: false, kilograms: 77.6, time: nil, user: 1, bmi: nil, heightMeters: nil),
    WeightVector(
        hex: "05 A0 3C 01", imperial: true, kilograms: 70.397535824, time: nil, user: 1, bmi: nil, heightMeters: nil),
    WeightVector(
        hex: "06 A0 3C E9 07 0B 16 08 1E 00 01", imperial: false, kilograms: 77.6, time: 1_763_800_200, user: 1,
        bmi: nil, heightMeters: nil),
    WeightVector(
        hex: "07 A0 3C E9 07 0B 16 08 1E 00 01", imperial: true, kilograms: 70.397535824, time: 1_763_800_200, user: 1,
        bmi: nil, heightMeters: nil),
    WeightVector(
        hex: "08 A0 3C FD 00 D6 06", imperial: false, kilograms: 77.6, time: nil, user: nil, bmi: 25.3,
        heightMeters: 1.75),
    WeightVector(
        hex: "09 A0 3C FD 00 D6 06", imperial: true, kilograms: 70.397535824, time: nil, user: nil, bmi: 25.3,
        heightMeters: 4.445),
    WeightVector(
        hex: "0A A0 3C E9 07 0B 16 08 1E 00 FD 00 D6 06", imperial: false, kilograms: 77.6, time: 1_763_800_200,
        user: nil, bmi: 25.3, heightMeters: 1.75),
    WeightVector(
        hex: "0B A0 3C E9 07 0B 16 08 1E 00 FD 00 D6 06", imperial: true, kilograms: 70.397535824, time: 1_763_800_200,
        user: nil, bmi: 25.3, heightMeters: 4.445),
    WeightVector(
        hex: "0C A0 3C 01 FD 00 D6 06", imperial: false, kilograms: 77.6, time: nil, user: 1, bmi: 25.3,
        heightMeters: 1.75),
    WeightVector(
        hex: "0D A0 3C 01 FD 00 D6 06", imperial: true, kilograms: 70.397535824, time: nil, user: 1, bmi: 25.3,
        heightMeters: 4.445),
    WeightVector(
        hex: "0E A0 3C E9 07 0B 16 08 1E 00 01 FD 00 D6 06", imperial: false, kilograms: 77.6, time: 1_763_800_200,
        user: 1, bmi: 25.3, heightMeters: 1.75),
    WeightVector(
        hex: "0F A0 3C E9 07 0B 16 08 1E 00 01 FD 00 D6 06", imperial: true, kilograms: 70.397535824,
        time: 1_763_800_200, user: 1, bmi: 25.3, heightMeters: 4.445),
]
