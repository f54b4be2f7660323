/// Body composition as the iHealth SDK reports it (keys weight, weightFatValue, waterValue, muscleValue,
/// skeletonValue, VFatLevelValue, DCIValue), plus the impedance it came from when known. Fields a source does
/// not give are `nil`.
///
/// Threading: a value type; share freely.
public struct BodyComposition: Sendable, Hashable, Codable {
    /// Weight, kg.
    public var weightKg: Double?
    /// Body fat, %.
    public var fatPercent: Double?
    /// Body water, %.
    public var waterPercent: Double?
    /// Muscle, %.
    public var musclePercent: Double?
    /// Bone mass, kg.
    public var boneMassKg: Double?
    /// Visceral fat level (the scale's index).
    public var visceralFatLevel: Int?
    /// Daily calorie intake, kcal.
    public var dciKcal: Int?
    /// Body impedance, Ω.
    public var impedanceOhm: Double?

    /// Creates a value from its fields (each documented on its property).
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
