/// A measurement's result.
///
/// Threading: a value type; share freely.
public struct ScaleMeasurement: Sendable, Hashable {
    /// The stable weight, kg.
    public var stableWeightKg: Double
    /// As the scale displays it in the requested unit.
    public var displayed: DisplayedWeight
    /// The unstable weights that came before it, kg.
    public var unstableWeightsKg: [Double]
    /// HS5: the weight by impedance, kg.
    public var impedanceWeightKg: Double?
    /// HS5 or a Body Composition service.
    public var bodyComposition: BodyComposition?
    /// A standard scale's time stamp, Unix seconds.
    public var time: Int?
}
