/// Body composition as the iHealth SDK reports it (keys weight, weightFatValue, waterValue, muscleValue,
/// skeletonValue, VFatLevelValue, DCIValue), plus the impedance it came from when known. Fields a source does
/// not give are `nil`.
///
/// Threading: a value type; share freely.
public struct BodyComposition: Sendable, Hashable, Codable {
    public var weightKg: Double?
    public var fatPercent: Double?
    public var waterPercent: Double?
    public var musclePercent: Double?
    public var boneMassKg: Double?
    public var visceralFatLevel: Int?
    public var dciKcal: Int?
    public var impedanceOhm: Double?

    public init(
        weightKg: Double?, fatPercent: Double?, waterPercent: Double?, musclePercent: Double?, boneMassKg: Double?,
        visceralFatLevel: Int?, dciKcal: Int?, impedanceOhm: Double? = nil
    ) {
        self.weightKg = weightKg
        self.fatPercent = fatPercent
        self.waterPercent = waterPercent
        self.musclePercent = musclePercent
        self.boneMassKg = boneMassKg
        self.visceralFatLevel = visceralFatLevel
        self.dciKcal = dciKcal
        self.impedanceOhm = impedanceOhm
    }
}
