/// One stored measurement of a scale's memory (or a timestamped measurement of a standard scale): weight, time
/// and, from an HS5 or a Body Composition service, body composition. The event store keeps it as the payload of
/// record `<device>/<time>`.
///
/// Threading: a value type; share freely.
public struct ScaleRecord: Sendable, Hashable, Codable {
    /// When the scale measured, Unix seconds (UTC).
    public var time: Int
    /// The weight in kilograms.
    public var weightKg: Double
    /// The HS5's body composition for this record.
    public var bodyComposition: BodyComposition?

    /// Creates a value from its fields (each documented on its property).
    public init(time: Int, weightKg: Double, bodyComposition: BodyComposition? = nil) {
        self.time = time
        self.weightKg = weightKg
        self.bodyComposition = bodyComposition
    }
}
