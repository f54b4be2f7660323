// AxonEEG — the six activity zones of the Brainiac indicators, with the vendor's raw values.

/// The brain-state zone an indicator reports; raw values are the seed SDK's `CBManagerActivityZone`.
///
/// How a zone is chosen is documented in `docs/activity-zones.md` and ``ZoneClassifier``.
///
/// Threading: a plain value, `Sendable`.
public enum ActivityZone: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Alpha power up against the baseline (`CBManagerActivityZone_Relaxation`).
    case relaxation = 0
    /// Alpha power strongly up (`CBManagerActivityZone_HighRelaxation`).
    case highRelaxation = 1
    /// Theta up while alpha is not: drowsiness (`CBManagerActivityZone_Dream`).
    case dream = 2
    /// No band changed beyond ordinary fluctuation (`CBManagerActivityZone_NormalActivity`).
    case normalActivity = 3
    /// Beta up while alpha is not (`CBManagerActivityZone_Agitation`).
    case agitation = 4
    /// Beta strongly up while alpha is not (`CBManagerActivityZone_HighAgitation`).
    case highAgitation = 5

    /// The seed's name without its prefix: `Relaxation`, `HighRelaxation`, `Dream`, `NormalActivity`,
    /// `Agitation`, `HighAgitation`.
    public var description: String {
        switch self {
        case .relaxation: "Relaxation"
        case .highRelaxation: "HighRelaxation"
        case .dream: "Dream"
        case .normalActivity: "NormalActivity"
        case .agitation: "Agitation"
        case .highAgitation: "HighAgitation"
        }
    }

    /// The zone whose ``description`` is `name` (case-insensitive), if any.
    public init?(name: String) {
        guard let zone = Self.allCases.first(where: { $0.description.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = zone
    }
}
