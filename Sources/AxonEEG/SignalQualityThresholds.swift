// AxonEEG — what makes a channel's window unusable, and a window contaminated by eyes or muscle.

import AxonDSP

/// The limits the engine measures every window against (`SignalQualityMeter`): which channels are usable and
/// which windows carry a blink or muscle artifact. Defaults suit scalp EEG in µV at 200–500 Hz.
///
/// - A channel is **unusable** in a window when it is railed (more than ``maxRailedFraction`` of its samples at
///   the amplifier's rail), flat (power from 1 Hz to Nyquist below ``flatPower``), or its analysis failed (no power in the
///   reference band, or not a number). An unusable channel's window enters neither the baseline nor an indicator.
/// - A window is **contaminated** by a blink or eye movement when, on an eye channel (``blinkChannels``), the
///   slow part of the signal — smoothed over 100 ms, which also cancels 10 Hz alpha and 50/60 Hz mains, and with
///   its straight line removed — swings more peak to peak than the channel's blink limit: ``blinkAmplitude``, or
///   ``blinkScale`` times the channel's own typical swing when that is higher; by muscle when, on any channel,
///   more than ``muscleShareLimit`` of the 3 Hz…``muscleBand``-top power lies in ``muscleBand`` (broadband EMG
///   from a jaw clench). With ``excludeArtifacts`` on, a contaminated window enters neither the
///   baseline nor an indicator, on any channel.
/// - Mains (line noise) is measured and reported, not used to exclude: raw amplifier data before a notch is
///   routinely dominated by it, and the engine's bands lie far from 50 and 60 Hz.
///
/// Threading: a plain value, `Sendable`.
public struct SignalQualityThresholds: Sendable, Hashable {
    /// The amplifier's rail in the channels' unit (a Cyton at gain 24: 187,500 µV); `nil` when unknown, which
    /// turns the railed test off. A sample whose magnitude reaches 99.9 % of it counts as railed.
    public var railMagnitude: Double?
    /// Most railed samples a usable window may hold, as a fraction of the window.
    public var maxRailedFraction: Double
    /// Power from 1 Hz to Nyquist (the window's variance without its slowest drift) below which a window is flat
    /// (a disconnected or shorted input), unit².
    public var flatPower: Double
    /// Mains frequencies whose power share is reported (±1 Hz around each).
    public var lineFrequencies: [Double]
    /// The band of broadband muscle power.
    public var muscleBand: FrequencyBand
    /// Share of the 3 Hz…muscle-band-top power in the muscle band above which a window is contaminated.
    public var muscleShareLimit: Double
    /// Peak-to-peak swing of the slow signal above which a window is contaminated by the eyes, unit: the whole
    /// limit when ``blinkScale`` is `nil`, its floor otherwise.
    public var blinkAmplitude: Double
    /// How many times its own typical slow swing a channel's window must swing, besides ``blinkAmplitude``, to be
    /// contaminated by the eyes; `nil`: ``blinkAmplitude`` alone, the absolute rule.
    ///
    /// The typical swing is the lower quartile of the channel's swings over its last ``blinkHistory`` seconds of
    /// usable windows (the window being judged not among them), to within 6 %; until ``blinkWarmUp`` seconds of
    /// them are in, the limit is ``blinkAmplitude``. So a recording whose slow signal is large everywhere — raw,
    /// not high-passed EEG such as PhysioNet's, with 70–130 µV of swing in every window — is judged against its
    /// own background and flags its blinks, not every window; a quiet one keeps the 100 µV floor. 2.5 keeps every
    /// flag on the OpenBCI blink recording and takes PhysioNet S001R01 from 60 of 60 windows to 26
    /// (docs/signal-quality.md).
    public var blinkScale: Double?
    /// Seconds of a channel's most recent usable windows whose swings make its typical swing (``blinkScale``).
    /// At most a day (86,400 s). The engine takes their memory when it is made: 4 KiB per channel plus 2 bytes per
    /// channel per window of history (60 s at one window a second: 120 bytes).
    public var blinkHistory: Double
    /// Seconds of usable windows a channel needs in its history before ``blinkScale`` applies; before that the
    /// limit is ``blinkAmplitude`` alone. At most ``blinkHistory``.
    public var blinkWarmUp: Double
    /// Indices of the channels where eye artifacts are looked for; `nil`: the frontal and temporal ones by label
    /// (`Fp…`, `AF…`, `F…`, `T…`); none when the labels name 10-20 positions but none of those (an occipital
    /// montage sees no blink worth the name); all channels when no label names a position (`EXG0`, `ch1`).
    public var blinkChannels: [Int]?
    /// Leave contaminated windows out of the baseline and the indicators (they are flagged either way).
    public var excludeArtifacts: Bool

    /// Creates thresholds; every parameter has a default.
    public init(
        railMagnitude: Double? = nil, maxRailedFraction: Double = 0.01, flatPower: Double = 0.01,
        lineFrequencies: [Double] = [50, 60], muscleBand: FrequencyBand = SignalQualityThresholds.defaultMuscleBand,
        muscleShareLimit: Double = 0.55, blinkAmplitude: Double = 100, blinkScale: Double? = 2.5,
        blinkHistory: Double = 60, blinkWarmUp: Double = 10, blinkChannels: [Int]? = nil,
        excludeArtifacts: Bool = true
    ) {
        self.railMagnitude = railMagnitude
        self.maxRailedFraction = maxRailedFraction
        self.flatPower = flatPower
        self.lineFrequencies = lineFrequencies
        self.muscleBand = muscleBand
        self.muscleShareLimit = muscleShareLimit
        self.blinkAmplitude = blinkAmplitude
        self.blinkScale = blinkScale
        self.blinkHistory = blinkHistory
        self.blinkWarmUp = blinkWarmUp
        self.blinkChannels = blinkChannels
        self.excludeArtifacts = excludeArtifacts
    }

    // The literal is a valid band, so the `try!` cannot fail.
    /// 30–45 Hz: above beta, below the mains.
    public static let defaultMuscleBand = try! FrequencyBand(30, 45)

    /// The eye channels for a set of labels: ``blinkChannels`` when set, else those whose 10-20 position is
    /// frontal or temporal (`Fp`, `AF`, `F`, `FC`, `FT`, `T`, `TP`; PhysioNet's `Fp1.` and `Fc5.` too), else none
    /// when some label names a position, else all.
    public func eyeChannels(labels: [String]) -> [Int] {
        if let blinkChannels { return blinkChannels }
        let positions = labels.map(Self.position)
        let frontalOrTemporal = positions.indices.filter { index in
            guard let position = positions[index] else { return false }
            return position.hasPrefix("F") || position.hasPrefix("AF") || position.hasPrefix("T")
        }
        if !frontalOrTemporal.isEmpty { return frontalOrTemporal }
        return positions.contains { $0 != nil } ? [] : Array(labels.indices)
    }

    /// The 10-20/10-10 position a label names, upper-cased without its padding dots (`O1..` → `O1`), or `nil`.
    static func position(_ label: String) -> String? {
        let name = label.uppercased().filter { $0 != "." && $0 != " " }
        let letters = name.prefix { $0.isLetter }
        let rest = name.dropFirst(letters.count)
        let sites: Set<Substring> = [
            "FP", "AF", "F", "FC", "FT", "C", "CP", "T", "TP", "P", "PO", "O", "I", "N", "A", "M",
        ]
        var site = letters
        if rest.isEmpty, site.hasSuffix("Z") { site = site.dropLast() }
        guard sites.contains(site), rest.isEmpty ? letters.hasSuffix("Z") : rest.allSatisfy(\.isNumber) else {
            return nil
        }
        return name
    }

    /// Checks the limits.
    ///
    /// - Throws: ``EEGError/invalidConfiguration(_:)`` naming the first limit that cannot work.
    public func validate(channelCount: Int) throws(EEGError) {
        if let railMagnitude, !(railMagnitude > 0 && railMagnitude.isFinite) {
            throw .invalidConfiguration("rail of \(railMagnitude) must be finite and positive")
        }
        guard (0...1).contains(maxRailedFraction), (0...1).contains(muscleShareLimit) else {
            throw .invalidConfiguration("railed fraction and muscle share limits must lie in 0…1")
        }
        guard flatPower >= 0, blinkAmplitude > 0 else {
            throw .invalidConfiguration("flat power must be ≥ 0 and blink amplitude > 0")
        }
        if let blinkScale, !(blinkScale > 0 && blinkScale.isFinite) {
            throw .invalidConfiguration("blink scale of \(blinkScale) must be finite and positive (nil: absolute)")
        }
        guard blinkHistory > 0, blinkHistory <= 86_400, blinkWarmUp >= 0, blinkWarmUp <= blinkHistory else {
            throw .invalidConfiguration("blink history must lie in 0…86,400 s (above 0), blink warm-up in 0…history")
        }
        for channel in blinkChannels ?? [] where !(0..<channelCount).contains(channel) {
            throw .invalidConfiguration("blink channel \(channel) is not one of the \(channelCount) channels")
        }
    }
}
