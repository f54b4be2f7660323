// AxonEEG — one indicator: the overall activity zone and each channel's colour, as an owned value.

/// The seed's `CB_indicatorsStateWithDictionary` payload: `activities` (overall zone and percent) and `colors`
/// (zone and percent per channel), plus the z-scores they were decided from.
///
/// Threading: a plain value, `Sendable`.
public struct ActivityIndicators: Sendable, Hashable {
    /// Serial number of the indicator, from 0.
    public var counter: Int
    /// Index of the sample that ended the indicator's period.
    public var sampleIndex: Int
    /// Time of that sample, milliseconds since 1970.
    public var timeframe: Double
    /// Spectra averaged over the period (the windows it used).
    public var frames: Int
    /// Spectra of the period left out (filled-in samples, artifacts, no usable channel).
    public var excludedFrames: Int
    /// The overall activity (the seed's `activities`).
    public var activity: ZoneClassifier.Level
    /// Z-scores of log relative band power averaged over the channels included, one per configured band.
    public var zScores: [Double]
    /// Per-channel colours (the seed's `colors`), in stream order.
    public var channels: [ChannelActivity]

    /// One channel's colour.
    public struct ChannelActivity: Sendable, Hashable {
        /// The channel's label.
        public var label: String
        /// The channel's zone and percent; `nil` when the channel was left out (no usable window in the baseline
        /// or in the period).
        public var level: ZoneClassifier.Level?
        /// The channel's z-scores, one per band (NaN when left out).
        public var zScores: [Double]
    }

    /// Copies an indicator out of its row.
    public init(row: UnsafeBufferPointer<Double>, layout: IndicatorLayout, labels: [String]) {
        precondition(row.count >= layout.width && labels.count == layout.channelCount)
        func level(zoneLane: Int, percentLane: Int) -> ZoneClassifier.Level {
            ZoneClassifier.Level(
                zone: ActivityZone(rawValue: Int(row[zoneLane])) ?? .normalActivity, percent: row[percentLane])
        }
        self.counter = Int(row[layout.lane(.counter)])
        self.sampleIndex = Int(row[layout.lane(.sampleIndex)])
        self.timeframe = row[layout.lane(.timeframe)]
        self.frames = Int(row[layout.lane(.frames)])
        self.excludedFrames = Int(row[layout.lane(.excludedFrames)])
        self.activity = level(zoneLane: layout.lane(.zone), percentLane: layout.lane(.percent))
        self.zScores = (0..<layout.bandCount).map { row[layout.overallZLane(band: $0)] }
        self.channels = labels.enumerated().map { channel, label in
            ChannelActivity(
                label: label,
                level: row[layout.zoneLane(channel: channel)].isNaN
                    ? nil : level(zoneLane: layout.zoneLane(channel: channel), percentLane: layout.percentLane(channel: channel)),
                zScores: (0..<layout.bandCount).map { row[layout.zLane(channel: channel, band: $0)] })
        }
    }
}
