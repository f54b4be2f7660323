// AxonEEG — one channel's signal quality in one window, as an owned value.

/// One channel's signal quality in one window (``SignalQualityThresholds`` says how each is measured and judged).
///
/// Threading: a plain value, `Sendable`.
public struct SignalQuality: Sendable, Hashable, Codable {
    /// Fraction of the window's samples at the amplifier's rail (0 when no rail is configured).
    public var railedFraction: Double
    /// Mean-square power from 1 Hz to Nyquist, unit² (near 0 for a flat input).
    public var power: Double
    /// Share of the 1 Hz…Nyquist power within ±1 Hz of the mains frequencies.
    public var lineShare: Double
    /// Share of the 3 Hz…muscle-band-top power in the muscle band (`nil` when the band lies above Nyquist).
    public var muscleShare: Double?
    /// Peak-to-peak swing of the 100 ms-smoothed, straight-line-removed window, unit (eye artifacts).
    public var slowSwing: Double
    /// The window can be used: not railed, not flat, and analysed.
    public var usable: Bool

    /// Reads a channel's quality out of a spectrum frame.
    public init(_ view: SpectrumFrameView, channel: Int) {
        railedFraction = view.quality(channel: channel, .railedFraction)
        power = view.quality(channel: channel, .power)
        lineShare = view.quality(channel: channel, .lineShare)
        let muscle = view.quality(channel: channel, .muscleShare)
        muscleShare = muscle.isNaN ? nil : muscle
        slowSwing = view.quality(channel: channel, .slowSwing)
        usable = view.isUsable(channel: channel)
    }
}

/// Every channel's signal quality in one window, with the window's artifacts: the engine's signal-quality stream
/// (one per spectrum frame; ``EEGSession/quality``).
///
/// Threading: a plain value, `Sendable`.
public struct SignalQualityFrame: Sendable, Hashable {
    /// Serial number of the spectrum frame it belongs to.
    public var counter: Int
    /// Index of the window's last sample in the stream.
    public var sampleIndex: Int
    /// Time of the window's last sample, milliseconds since 1970.
    public var timeframe: Double
    /// Artifacts found in the window.
    public var artifacts: ArtifactKinds
    /// Whether the window was left out of the baseline and the indicators as a whole.
    public var isExcluded: Bool
    /// One entry per channel, in stream order: the label and the quality.
    public var channels: [(label: String, quality: SignalQuality)]

    /// Takes the quality out of a spectrum frame.
    public init(_ frame: SpectrumFrame) {
        counter = frame.counter
        sampleIndex = frame.sampleIndex
        timeframe = frame.timeframe
        artifacts = frame.artifacts
        isExcluded = frame.isExcluded
        channels = frame.channels.map { ($0.label, $0.quality) }
    }

    /// Frames are equal when every field is.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.counter == rhs.counter && lhs.sampleIndex == rhs.sampleIndex && lhs.timeframe == rhs.timeframe
            && lhs.artifacts == rhs.artifacts && lhs.isExcluded == rhs.isExcluded
            && lhs.channels.elementsEqual(rhs.channels) { $0.label == $1.label && $0.quality == $1.quality }
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(counter)
        hasher.combine(sampleIndex)
        for channel in channels {
            hasher.combine(channel.label)
            hasher.combine(channel.quality)
        }
    }
}
