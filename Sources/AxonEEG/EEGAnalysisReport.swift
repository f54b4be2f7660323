// AxonEEG — a whole recording's spectra and indicators, summarised per channel and band.

import AxonDSP

/// The summary of an analysis run: per channel and band the median, minimum and maximum dominant frequency and the
/// median band power over every spectrum frame, plus the zone timeline. `Codable` with stable key names
/// (`sampleRate`, `frames`, `channels[].label`, `channels[].bands[].low/high/median/min/max/medianPower`,
/// `zones[].time/zone/percent/channels`), which `axon analyze --json` prints.
///
/// Threading: a plain value, `Sendable`.
public struct EEGAnalysisReport: Sendable, Codable, Hashable {
    /// Samples per second of the analysed stream.
    public var sampleRate: Double
    /// Spectrum frames analysed.
    public var frames: Int
    /// Samples ingested.
    public var samples: Int
    /// Samples per window and per hop.
    public var window: Int
    /// Samples between spectra.
    public var hop: Int
    /// Seconds of baseline before the first indicator (`nil` when no baseline ran).
    public var baselineSeconds: Double?
    /// Frames whose window held filled-in samples (lost samples bridged by the engine).
    public var framesWithFilledSamples: Int
    /// One entry per channel.
    public var channels: [Channel]
    /// The indicators, in time order.
    public var zones: [Zone]

    /// One channel's summary.
    public struct Channel: Sendable, Codable, Hashable {
        /// The channel's label.
        public var label: String
        /// One entry per configured band.
        public var bands: [Band]
    }

    /// One band of one channel.
    public struct Band: Sendable, Codable, Hashable {
        /// Lower edge, Hz.
        public var low: Double
        /// Upper edge, Hz.
        public var high: Double
        /// Median dominant frequency over the frames, Hz (`nil` when there were no frames; JSON `null`).
        public var median: Double?
        /// Lowest dominant frequency, Hz.
        public var min: Double?
        /// Highest dominant frequency, Hz.
        public var max: Double?
        /// Median band power, unit².
        public var medianPower: Double?
        /// Median share of the reference band's power.
        public var medianRelativePower: Double?

        private enum CodingKeys: String, CodingKey {
            case low, high, median, min, max, medianPower, medianRelativePower
        }

        /// Encodes every key, with `null` for a value that does not exist, so readers always find the same keys.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(low, forKey: .low)
            try container.encode(high, forKey: .high)
            try container.encode(median, forKey: .median)
            try container.encode(min, forKey: .min)
            try container.encode(max, forKey: .max)
            try container.encode(medianPower, forKey: .medianPower)
            try container.encode(medianRelativePower, forKey: .medianRelativePower)
        }
    }

    /// One indicator.
    public struct Zone: Sendable, Codable, Hashable {
        /// Seconds from the first analysed sample to the sample that ended the indicator's period.
        public var time: Double
        /// The overall zone's name (`Relaxation`, …).
        public var zone: String
        /// The overall percent.
        public var percent: Double
        /// Per-channel colours.
        public var channels: [ChannelZone]
        /// The channel-averaged z-scores per band.
        public var zScores: [Double]
    }

    /// One channel's colour in an indicator.
    public struct ChannelZone: Sendable, Codable, Hashable {
        /// The channel's label.
        public var label: String
        /// The zone's name.
        public var zone: String
        /// The percent.
        public var percent: Double
    }
}

extension EEGAnalysisReport {
    /// Collects frames and indicators as they come and summarises them at the end.
    ///
    /// Threading: a plain value; one owner.
    public struct Builder: Sendable {
        private let configuration: EEGEngine.Configuration
        private let baselineSeconds: Double?
        private var dominant: [[[Double]]]
        private var power: [[[Double]]]
        private var relative: [[[Double]]]
        private var frames = 0
        private var filled = 0
        private var samples = 0
        private var zones: [Zone] = []

        /// Starts an empty summary for an engine configured with `configuration`.
        public init(configuration: EEGEngine.Configuration, baselineSeconds: Double?) {
            self.configuration = configuration
            self.baselineSeconds = baselineSeconds
            let empty = Array(
                repeating: Array(repeating: [Double](), count: configuration.bands.count),
                count: configuration.channelCount)
            dominant = empty
            power = empty
            relative = empty
        }

        /// Adds one spectrum frame.
        public mutating func add(_ frame: SpectrumFrame) {
            frames += 1
            if frame.filledSamples > 0 { filled += 1 }
            samples = max(samples, frame.sampleIndex + 1)
            for (channel, spectrum) in frame.channels.enumerated() {
                for (band, measure) in spectrum.bands.enumerated() {
                    dominant[channel][band].append(measure.dominantFrequency)
                    power[channel][band].append(measure.power)
                    relative[channel][band].append(measure.relativePower)
                }
            }
        }

        /// Adds one indicator.
        public mutating func add(_ indicator: ActivityIndicators) {
            zones.append(
                Zone(
                    time: Double(indicator.sampleIndex + 1) / configuration.sampleRate,
                    zone: indicator.activity.zone.description, percent: indicator.activity.percent,
                    channels: indicator.channels.map {
                        ChannelZone(label: $0.label, zone: $0.level.zone.description, percent: $0.level.percent)
                    },
                    zScores: indicator.zScores))
        }

        /// Records how many samples were ingested in all (frames only tell up to the last window's end).
        public mutating func setSampleCount(_ count: Int) { samples = max(samples, count) }

        /// The summary.
        public func report() -> EEGAnalysisReport {
            let channels = configuration.channelLabels.enumerated().map { channel, label in
                Channel(
                    label: label,
                    bands: configuration.bands.enumerated().map { band, range in
                        let values = dominant[channel][band]
                        return Band(
                            low: range.lower, high: range.upper, median: Self.median(values),
                            min: values.min(), max: values.max(),
                            medianPower: Self.median(power[channel][band]),
                            medianRelativePower: Self.median(relative[channel][band]))
                    })
            }
            return EEGAnalysisReport(
                sampleRate: configuration.sampleRate, frames: frames, samples: samples,
                window: configuration.windowSize, hop: configuration.hop, baselineSeconds: baselineSeconds,
                framesWithFilledSamples: filled, channels: channels, zones: zones)
        }

        /// The median (mean of the middle two for an even count); `nil` for no values.
        static func median(_ values: [Double]) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
    }
}
