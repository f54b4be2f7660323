/// A whole Body Composition Measurement (one packet, or the packets of a multi-packet one joined) in physical
/// units: masses in kilograms, percentages in %, impedance in Ω, height in metres.
///
/// Threading: a value type; share freely.
public struct BodyCompositionMeasurement: Sendable, Hashable, Codable {
    /// Body fat %, `nil` when the scale reports the measurement unsuccessful (0xFFFF).
    public var bodyFatPercent: Double?
    /// When the scale measured, if it sent a time stamp.
    public var timestamp: GATTDateTime?
    /// The scale's user index, if sent (0xFF = unknown).
    public var userID: UInt8?
    /// Basal metabolism in kJ.
    public var basalMetabolismKJ: Double?
    /// Muscle, %.
    public var musclePercent: Double?
    /// Muscle mass, kg.
    public var muscleMassKg: Double?
    /// Fat-free mass, kg.
    public var fatFreeMassKg: Double?
    /// Soft lean mass, kg.
    public var softLeanMassKg: Double?
    /// Body water mass, kg.
    public var bodyWaterMassKg: Double?
    /// Body impedance, Ω.
    public var impedanceOhm: Double?
    /// Weight, kg.
    public var weightKg: Double?
    /// Height, m.
    public var heightMeters: Double?
    /// How many packets the measurement came in.
    public var packetCount: Int

    /// Joins packets (in arrival order): a field keeps the first value that was sent for it; body fat the first
    /// successful one.
    public init(packets: [BodyCompositionPacket]) {
        func mass(_ raw: UInt16?, _ imperial: Bool) -> Double? {
            raw.map { imperial ? WeightConversion.kilograms(fromPounds: Double($0) / 100) : Double($0) / 200 }
        }
        packetCount = packets.count
        for p in packets {
            if bodyFatPercent == nil, p.rawBodyFat != 0xFFFF { bodyFatPercent = Double(p.rawBodyFat) / 10 }
            timestamp = timestamp ?? p.timestamp
            userID = userID ?? p.userID
            basalMetabolismKJ = basalMetabolismKJ ?? p.basalMetabolism.map(Double.init)
            musclePercent = musclePercent ?? p.rawMusclePercentage.map { Double($0) / 10 }
            muscleMassKg = muscleMassKg ?? mass(p.rawMuscleMass, p.imperial)
            fatFreeMassKg = fatFreeMassKg ?? mass(p.rawFatFreeMass, p.imperial)
            softLeanMassKg = softLeanMassKg ?? mass(p.rawSoftLeanMass, p.imperial)
            bodyWaterMassKg = bodyWaterMassKg ?? mass(p.rawBodyWaterMass, p.imperial)
            impedanceOhm = impedanceOhm ?? p.rawImpedance.map { Double($0) / 10 }
            weightKg = weightKg ?? mass(p.rawWeight, p.imperial)
            heightMeters = heightMeters ?? p.rawHeight.map { p.imperial ? Double($0) / 10 * 0.0254 : Double($0) / 1000 }
        }
    }

    /// The iHealth-style body composition this measurement gives, with `weightKg` from a Weight Measurement when
    /// the packet had none. Water % is body water mass over weight; bone mass is fat-free mass minus soft lean
    /// mass (soft lean mass is fat-free mass without bone mineral). Visceral fat level and DCI are not in the
    /// standard service and stay `nil`.
    public func bodyComposition(weightKg fallback: Double? = nil) -> BodyComposition {
        let weight = weightKg ?? fallback
        var water: Double?
        if let bodyWaterMassKg, let weight, weight > 0 { water = bodyWaterMassKg / weight * 100 }
        var bone: Double?
        if let fatFreeMassKg, let softLeanMassKg, fatFreeMassKg >= softLeanMassKg {
            bone = fatFreeMassKg - softLeanMassKg
        }
        return BodyComposition(
            weightKg: weight, fatPercent: bodyFatPercent, waterPercent: water, musclePercent: musclePercent,
            boneMassKg: bone, visceralFatLevel: nil, dciKcal: nil, impedanceOhm: impedanceOhm)
    }
}
