/// The sample rate a recording's timestamps show: (frames − 1) ÷ (last − first stamp).
///
/// Recorders stamp packets, not samples, so single intervals jitter; over a whole file the mean is good to a
/// fraction of a percent (250.33 Hz for the OpenBCI sample file, 256.03 Hz for the Muse one).
struct MeasuredRate {
    /// Samples per second.
    let rate: Double
    /// The rate the format or header declares.
    let nominal: Double

    /// `nil` without timestamps, with fewer than two frames, or when the stamps do not advance.
    init?(timestamps: [Double]?, nominal: Double) {
        guard let timestamps, timestamps.count >= 2, let first = timestamps.first, let last = timestamps.last,
            last > first
        else { return nil }
        self.rate = Double(timestamps.count - 1) / (last - first)
        self.nominal = nominal
    }

    /// Two decimals, for `metadata["measuredRate"]`.
    var formatted: String {
        let hundredths = (rate * 100).rounded()
        let whole = Int(hundredths / 100)
        let fraction = Int(hundredths) - whole * 100
        return "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// A warning when the measured rate is more than 2 % from the nominal one.
    var warning: String? {
        guard abs(rate - nominal) > 0.02 * nominal else { return nil }
        return "the timestamps show \(formatted) Hz, more than 2 % from the nominal \(nominal) Hz"
    }
}
