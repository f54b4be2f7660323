// AxonEEG — from band-power changes against the baseline to one of the six activity zones and a level.

/// Classifies a change of theta, alpha and beta power against the baseline into an ``ActivityZone`` and a
/// percent level (0.25, 0.5, 0.75 or 1). The method and the literature it rests on are in
/// `docs/activity-zones.md`; in short, with `zθ`, `zα`, `zβ` the z-scores of the period's mean log relative power
/// against the baseline's frames:
///
/// 1. `zα ≥ up` → alpha up: ``ActivityZone/relaxation``, or ``ActivityZone/highRelaxation`` when `zα ≥ strong`
///    (alpha grows with relaxed wakefulness and eyes closed, and is blocked by attention).
/// 2. otherwise, if `max(zβ, zθ) ≥ up`, the larger of the two decides: beta up with alpha not up →
///    ``ActivityZone/agitation`` (``ActivityZone/highAgitation`` when `zβ ≥ strong`): the engagement index
///    β/(α+θ) rises; theta up with alpha not up → ``ActivityZone/dream``: drowsiness replaces alpha by theta.
/// 3. otherwise ``ActivityZone/normalActivity``.
///
/// The percent is the strength of the deciding change on a scale from `up` to `full` standard deviations,
/// rounded up to a quarter (never below 0.25): it grows monotonically with the change, across the pair of zones
/// (a Relaxation at 0.5 is weaker than a HighRelaxation at 0.75). For NormalActivity it is the largest rise's
/// share of `up`: how close the state came to leaving the normal zone.
///
/// Threading: a plain value, `Sendable`; ``classify(theta:alpha:beta:)`` allocates nothing.
public struct ZoneClassifier: Sendable, Hashable {
    /// The z-score thresholds.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Thresholds: Sendable, Hashable {
        /// A band is "up" from this many baseline standard deviations.
        public var up: Double
        /// A band is "strongly up" (the High zones) from this many.
        public var strong: Double
        /// The percent reaches 1 at this many.
        public var full: Double
        /// The smallest standard deviation of log relative power used, in natural-log units (0.1 ≈ 10 %),
        /// so a very steady baseline does not turn tiny changes into large z-scores.
        public var minimumDeviation: Double

        /// Creates thresholds; defaults: up 1.5, strong 3, full 4.5 standard deviations, floor 0.1.
        public init(up: Double = 1.5, strong: Double = 3, full: Double = 4.5, minimumDeviation: Double = 0.1) {
            self.up = up
            self.strong = strong
            self.full = full
            self.minimumDeviation = minimumDeviation
        }

        /// Checks `0 < up < strong < full` and a positive floor.
        public func validate() throws(EEGError) {
            guard up > 0, strong > up, full > strong, minimumDeviation > 0 else {
                throw .invalidConfiguration(
                    "zone thresholds need 0 < up (\(up)) < strong (\(strong)) < full (\(full)) and a positive "
                        + "minimum deviation (\(minimumDeviation))")
            }
        }
    }

    /// A zone and its level.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Level: Sendable, Hashable, Codable {
        /// The zone.
        public var zone: ActivityZone
        /// 0.25, 0.5, 0.75 or 1.
        public var percent: Double

        /// Creates a level.
        public init(zone: ActivityZone, percent: Double) {
            self.zone = zone
            self.percent = percent
        }
    }

    /// The thresholds in use.
    public var thresholds: Thresholds

    /// Creates a classifier.
    public init(thresholds: Thresholds = .init()) {
        self.thresholds = thresholds
    }

    /// The zone and level for z-scores of theta, alpha and beta log power against the baseline.
    public func classify(theta: Double, alpha: Double, beta: Double) -> Level {
        let t = thresholds
        if alpha >= t.up {
            return Level(zone: alpha >= t.strong ? .highRelaxation : .relaxation, percent: percent(of: alpha))
        }
        if max(beta, theta) >= t.up {
            if beta >= theta {
                return Level(zone: beta >= t.strong ? .highAgitation : .agitation, percent: percent(of: beta))
            }
            return Level(zone: .dream, percent: percent(of: theta))
        }
        let rise = max(0, theta, alpha, beta)
        return Level(zone: .normalActivity, percent: Self.quarter(rise / t.up))
    }

    /// The level of a change of `z` on the `up…full` scale.
    private func percent(of z: Double) -> Double {
        Self.quarter((z - thresholds.up) / (thresholds.full - thresholds.up))
    }

    /// Rounds a 0…1 strength up to a quarter, at least 0.25.
    static func quarter(_ strength: Double) -> Double {
        guard strength.isFinite else { return strength > 0 ? 1 : 0.25 }
        return max(0.25, min(1, (strength * 4).rounded(.up) / 4))
    }
}
