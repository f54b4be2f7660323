import AxonDSP

// AxonEEG — how much the alpha rhythm grows when the eyes close: the classic check that alpha is alpha.

/// The eyes-closed ÷ eyes-open alpha power per channel: the mean alpha power (µV²) over the clean windows of each
/// state, in the individual alpha band — the eyes-closed individual alpha frequency ± 2 Hz (Klimesch 1999), or
/// the engine's alpha band when the eyes-closed windows give no IAF. Berger's alpha blocking: a resting occipital
/// alpha rhythm is several times stronger with the eyes closed; a ratio near 1 says the "alpha" is something else
/// (noise, muscle, a poor contact).
///
/// Threading: a plain value, `Sendable`.
public struct AlphaReactivity: Sendable, Hashable, Codable {
    /// One channel's figures.
    public struct Channel: Sendable, Hashable, Codable {
        /// The channel's label.
        public var label: String
        /// Mean alpha power with the eyes open, µV².
        public var eyesOpenPower: Double?
        /// Mean alpha power with the eyes closed, µV².
        public var eyesClosedPower: Double?
        /// Clean windows averaged with the eyes open.
        public var eyesOpenWindows: Int
        /// Clean windows averaged with the eyes closed.
        public var eyesClosedWindows: Int
        /// Eyes closed ÷ eyes open, or `nil` when a state has no clean window.
        public var ratio: Double? {
            guard let open = eyesOpenPower, let closed = eyesClosedPower, open > 0 else { return nil }
            return closed / open
        }
    }

    /// The eyes' state over a stretch of a recording.
    public enum EyesState: String, Sendable, Hashable, Codable, CaseIterable {
        case open = "eyes-open"
        case closed = "eyes-closed"

        /// The state a segment label or an annotation names (`eyes-open`, `eyes open`, `open`, `EO`; the same for
        /// closed), or `nil`.
        public init?(label: String) {
            let words = String(label.lowercased().map { $0 == "_" || $0 == "-" ? " " : $0 })
                .split(separator: " ").joined(separator: " ")
            switch words {
            case "eyes open", "open", "eo", "eyes opened": self = .open
            case "eyes closed", "closed", "ec", "eyes close": self = .closed
            default: return nil
            }
        }
    }

    /// A stretch of the analysed recording in one state, seconds from its start.
    public struct Segment: Sendable, Hashable, Codable {
        /// The state.
        public var state: EyesState
        /// The stretch, seconds.
        public var from: Double
        /// The stretch, seconds.
        public var to: Double

        /// Creates a segment.
        public init(state: EyesState, from: Double, to: Double) {
            self.state = state
            self.from = from
            self.to = to
        }
    }

    /// Per channel.
    public var channels: [Channel]
    /// The band the power was taken over, Hz.
    public var band: ClosedRange<Double>
    /// What set ``band``: `"IAF ± 2 Hz"` or `"the engine's alpha band"`.
    public var bandSource: String
    /// Where the states came from (the segments given, the recording's events, or two recordings).
    public var source: String

    /// The median of the channels' ratios.
    public var medianRatio: Double? { EEGAnalysisReport.Builder.median(channels.compactMap(\.ratio)) }

    /// The reactivity from the averaged spectra of each state's clean windows (same channels, same engine
    /// configuration); `engineAlpha` is the band used when the eyes-closed windows give no pooled IAF.
    public init(
        labels: [String], eyesOpen: AlphaFrequencyTracker, eyesClosed: AlphaFrequencyTracker,
        engineAlpha: FrequencyBand, source: String
    ) {
        if let peak = eyesClosed.estimate()?.peak {
            band = (peak - 2)...(peak + 2)
            bandSource = "IAF ± 2 Hz"
        } else {
            band = engineAlpha.lower...engineAlpha.upper
            bandSource = "the engine's alpha band"
        }
        let open = eyesOpen.bandPower(in: band)
        let closed = eyesClosed.bandPower(in: band)
        channels = labels.indices.map { index in
            Channel(
                label: labels[index], eyesOpenPower: open[index], eyesClosedPower: closed[index],
                eyesOpenWindows: eyesOpen.periodograms[index].count,
                eyesClosedWindows: eyesClosed.periodograms[index].count)
        }
        self.source = source
    }

    private enum CodingKeys: String, CodingKey { case channels, source, medianRatio, bandLow, bandHigh, bandSource }

    /// Encodes the channels (each with its ratio), the source and the median ratio.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channels, forKey: .channels)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(medianRatio, forKey: .medianRatio)
        try container.encode(band.lowerBound, forKey: .bandLow)
        try container.encode(band.upperBound, forKey: .bandHigh)
        try container.encode(bandSource, forKey: .bandSource)
    }

    /// Decodes what ``encode(to:)`` wrote (the median is recomputed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        channels = try container.decode([Channel].self, forKey: .channels)
        source = try container.decode(String.self, forKey: .source)
        band = try container.decode(Double.self, forKey: .bandLow)...container.decode(Double.self, forKey: .bandHigh)
        bandSource = try container.decode(String.self, forKey: .bandSource)
    }
}

extension AlphaReactivity.Channel {
    private enum CodingKeys: String, CodingKey {
        case label, eyesOpenPower, eyesClosedPower, eyesOpenWindows, eyesClosedWindows, ratio
    }

    /// Encodes the figures and the ratio.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encodeIfPresent(eyesOpenPower, forKey: .eyesOpenPower)
        try container.encodeIfPresent(eyesClosedPower, forKey: .eyesClosedPower)
        try container.encode(eyesOpenWindows, forKey: .eyesOpenWindows)
        try container.encode(eyesClosedWindows, forKey: .eyesClosedWindows)
        try container.encodeIfPresent(ratio, forKey: .ratio)
    }

    /// Decodes what ``encode(to:)`` wrote (the ratio is recomputed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        eyesOpenPower = try container.decodeIfPresent(Double.self, forKey: .eyesOpenPower)
        eyesClosedPower = try container.decodeIfPresent(Double.self, forKey: .eyesClosedPower)
        eyesOpenWindows = try container.decode(Int.self, forKey: .eyesOpenWindows)
        eyesClosedWindows = try container.decode(Int.self, forKey: .eyesClosedWindows)
    }
}

extension AlphaReactivity.Segment {
    /// Parses `STATE=FROM-TO[,STATE=FROM-TO…]` (seconds; STATE as ``AlphaReactivity/EyesState/init(label:)``
    /// reads it), e.g. `eyes-open=0-28,eyes-closed=28-76`.
    ///
    /// - Throws: ``EEGError/invalidConfiguration(_:)`` naming the part that does not parse.
    public static func parse(_ text: String) throws(EEGError) -> [Self] {
        try text.split(separator: ",").map { (part) throws(EEGError) -> Self in
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace }
            let times = pieces.count == 2 ? pieces[1].split(separator: "-").compactMap { Double($0) } : []
            guard pieces.count == 2, let state = AlphaReactivity.EyesState(label: pieces[0]), times.count == 2,
                times[0] >= 0, times[1] > times[0]
            else {
                throw .invalidConfiguration(
                    "segment \"\(part)\": give STATE=FROM-TO in seconds, STATE eyes-open or eyes-closed (e.g. eyes-closed=28-76)")
            }
            return Self(state: state, from: times[0], to: times[1])
        }
    }

    /// The segments a recording's events mark: each event whose text names a state
    /// (``AlphaReactivity/EyesState/init(label:)``) starts that state at its time, lasting until the next such event or `duration`.
    public static func fromEvents(_ events: [(time: Double, text: String)], duration: Double) -> [Self] {
        let marks = events.compactMap { event in
            AlphaReactivity.EyesState(label: event.text).map { (event.time, $0) }
        }.sorted { $0.0 < $1.0 }
        return marks.indices.compactMap { index in
            let end = index + 1 < marks.count ? marks[index + 1].0 : duration
            return end > marks[index].0 ? Self(state: marks[index].1, from: marks[index].0, to: end) : nil
        }
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
