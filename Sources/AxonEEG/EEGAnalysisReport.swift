// AxonEEG — a whole recording's spectra and indicators, summarised per channel and band.

import AxonDSP

/// The summary of an analysis run: per channel and band the median, minimum and maximum dominant frequency over the
/// spectrum frames where the band had a peak (and how many had none) and the median band power over every frame;
/// per channel its signal quality; the windows with artifacts; the zone timeline; and the whole run's band powers
/// (``BandPowerSummary``). `Codable` with stable key names (`sampleRate`, `frames`, `excludedFrames`,
/// `channels[].label`, `channels[].bands[].low/high/median/min/max/noPeakFrames/medianPower`, `channels[].quality`,
/// `artifacts[].time/kinds`, `zones[].time/zone/percent/frames/excludedFrames/channels`,
/// `bandPowers.bands/unit/windows/windowsWithFilledSamples/channels`), which `axon analyze --json` prints.
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
    /// Frames left out of the baseline and the indicators as a whole (filled-in samples or artifacts).
    public var excludedFrames: Int
    /// One entry per channel.
    public var channels: [Channel]
    /// The windows with an eye or muscle artifact, in time order.
    public var artifacts: [ArtifactWindow]
    /// The indicators, in time order.
    public var zones: [Zone]
    /// The individual alpha frequency of the clean windows (``AlphaFrequencyTracker``), when it was gathered.
    public var individualAlpha: IndividualAlpha? = nil
    /// Eyes-closed ÷ eyes-open alpha power, when the states were marked.
    public var reactivity: AlphaReactivity? = nil
    /// Absolute and relative power per channel in the named bands (``AxonDSP/PowerBands``) of the mean spectrum
    /// of the windows without filled-in samples (`nil` when there was no such window).
    public var bandPowers: BandPowerSummary? = nil

    /// The whole run's band powers: ``BandPowers`` of the mean of the engine's per-window power spectra (Welch's
    /// method over the engine's windows: its window length, hop, taper and detrending), over every window the engine
    /// analysed except those holding filled-in samples (a bridged loss) — blink and muscle windows and railed
    /// channels included, as in BrainFlow and Mind Monitor.
    public struct BandPowerSummary: Sendable, Codable, Hashable {
        /// The bands, `[low, high)` Hz.
        public var bands: [PowerBands.Band]
        /// Unit of the absolute powers (`µV^2`).
        public var unit: String
        /// Windows averaged.
        public var windows: Int
        /// Windows left out for holding filled-in samples.
        public var windowsWithFilledSamples: Int
        /// One entry per channel.
        public var channels: [Channel]

        /// One channel's band powers, in the order of ``bands``.
        public struct Channel: Sendable, Codable, Hashable {
            /// The channel's label.
            public var label: String
            /// Absolute power per band, unit² (JSON `null` when not a number).
            public var absolute: [Double?]
            /// Relative power per band, percent of the bands' sum (`null` when the bands hold no power).
            public var relative: [Double?]
        }
    }

    /// The individual alpha frequency and the windows it was estimated from.
    public struct IndividualAlpha: Sendable, Codable, Hashable {
        /// The estimate (per channel and pooled).
        public var estimate: IndividualAlphaFrequency.Estimate
        /// The first sample of each window averaged (engine sample index: the analysed segment's frame unless a gap
        /// was bridged before it).
        public var windowStarts: [Int]
        /// The padded spectrum's bin spacing, Hz.
        public var resolution: Double
    }

    /// A window with artifacts.
    public struct ArtifactWindow: Sendable, Codable, Hashable {
        /// Seconds from the first analysed sample to the end of the window.
        public var time: Double
        /// The kinds found (`eyes`, `muscle`).
        public var kinds: [String]
    }

    /// One channel's signal quality over the run.
    public struct ChannelQuality: Sendable, Codable, Hashable {
        /// Mean fraction of the windows' samples at the rail (≈ the fraction of the run's samples).
        public var railedFraction: Double
        /// Windows in which the channel was unusable (railed, flat or failed).
        public var unusableFrames: Int
        /// Median share of the power at the mains frequencies.
        public var medianLineShare: Double?
        /// Median share of the power in the muscle band.
        public var medianMuscleShare: Double?
        /// Median peak-to-peak slow swing, unit.
        public var medianSlowSwing: Double?
    }

    /// One channel's summary.
    public struct Channel: Sendable, Codable, Hashable {
        /// The channel's label.
        public var label: String
        /// One entry per configured band.
        public var bands: [Band]
        /// Its signal quality over the run.
        public var quality: ChannelQuality
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
        /// Frames in which the band held no peak of its own (not in the median, min or max).
        public var noPeakFrames: Int
        /// Median band power, unit².
        public var medianPower: Double?
        /// Median share of the reference band's power.
        public var medianRelativePower: Double?

        private enum CodingKeys: String, CodingKey {
            case low, high, median, min, max, noPeakFrames, medianPower, medianRelativePower
        }

        /// Encodes every key, with `null` for a value that does not exist, so readers always find the same keys.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(low, forKey: .low)
            try container.encode(high, forKey: .high)
            try container.encode(median, forKey: .median)
            try container.encode(min, forKey: .min)
            try container.encode(max, forKey: .max)
            try container.encode(noPeakFrames, forKey: .noPeakFrames)
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
        /// Spectra the indicator used.
        public var frames: Int
        /// Spectra of its period left out.
        public var excludedFrames: Int
        /// Per-channel colours.
        public var channels: [ChannelZone]
        /// The channel-averaged z-scores per band.
        public var zScores: [Double]
    }

    /// One channel's colour in an indicator.
    public struct ChannelZone: Sendable, Codable, Hashable {
        /// The channel's label.
        public var label: String
        /// The zone's name; `nil` (JSON `null`) when the channel was left out of the indicator.
        public var zone: String?
        /// The percent (`nil` when left out).
        public var percent: Double?
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
        private var noPeak: [[Int]]
        private var power: [[[Double]]]
        private var relative: [[[Double]]]
        private var railed: [Double]
        private var unusable: [Int]
        private var lineShares: [[Double]]
        private var muscleShares: [[Double]]
        private var slowSwings: [[Double]]
        private var artifacts: [ArtifactWindow] = []
        private var frames = 0
        private var filled = 0
        private var excluded = 0
        private var samples = 0
        private var zones: [Zone] = []
        private var bandPowers: BandPowers?
        /// Per channel, the sum of the power spectra of the windows without filled-in samples.
        private var spectrumSums: [[Double]]
        private var averagedWindows = 0

        /// Starts an empty summary for an engine configured with `configuration`; band powers in `powerBands` (none
        /// when they do not fit the configuration's sample rate and window).
        public init(
            configuration: EEGEngine.Configuration, baselineSeconds: Double?, powerBands: PowerBands = .standard
        ) {
            self.configuration = configuration
            self.baselineSeconds = baselineSeconds
            bandPowers = try? BandPowers(bands: powerBands, configuration: configuration)
            spectrumSums = Array(
                repeating: [Double](repeating: 0, count: configuration.windowSize / 2 + 1),
                count: bandPowers == nil ? 0 : configuration.channelCount)
            let empty = Array(
                repeating: Array(repeating: [Double](), count: configuration.bands.count),
                count: configuration.channelCount)
            dominant = empty
            power = empty
            relative = empty
            noPeak = Array(repeating: Array(repeating: 0, count: configuration.bands.count), count: configuration.channelCount)
            railed = Array(repeating: 0, count: configuration.channelCount)
            unusable = Array(repeating: 0, count: configuration.channelCount)
            lineShares = Array(repeating: [], count: configuration.channelCount)
            muscleShares = lineShares
            slowSwings = lineShares
        }

        /// Adds one spectrum frame.
        public mutating func add(_ frame: SpectrumFrame) {
            frames += 1
            if frame.filledSamples > 0 { filled += 1 }
            if frame.isExcluded { excluded += 1 }
            samples = max(samples, frame.sampleIndex + 1)
            if !frame.artifacts.isEmpty {
                artifacts.append(
                    ArtifactWindow(
                        time: Double(frame.sampleIndex + 1) / configuration.sampleRate, kinds: frame.artifacts.names))
            }
            if frame.filledSamples == 0, !spectrumSums.isEmpty {
                averagedWindows += 1
                for (channel, spectrum) in frame.channels.enumerated() {
                    for bin in spectrumSums[channel].indices { spectrumSums[channel][bin] += spectrum.spectrum[bin] }
                }
            }
            for (channel, spectrum) in frame.channels.enumerated() {
                for (band, measure) in spectrum.bands.enumerated() {
                    if let frequency = measure.dominantFrequency {
                        dominant[channel][band].append(frequency)
                    } else {
                        noPeak[channel][band] += 1
                    }
                    power[channel][band].append(measure.power)
                    relative[channel][band].append(measure.relativePower)
                }
                let quality = spectrum.quality
                railed[channel] += quality.railedFraction
                if !quality.usable { unusable[channel] += 1 }
                lineShares[channel].append(quality.lineShare)
                if let muscle = quality.muscleShare { muscleShares[channel].append(muscle) }
                slowSwings[channel].append(quality.slowSwing)
            }
        }

        /// Adds one indicator.
        public mutating func add(_ indicator: ActivityIndicators) {
            zones.append(
                Zone(
                    time: Double(indicator.sampleIndex + 1) / configuration.sampleRate,
                    zone: indicator.activity.zone.description, percent: indicator.activity.percent,
                    frames: indicator.frames, excludedFrames: indicator.excludedFrames,
                    channels: indicator.channels.map {
                        ChannelZone(label: $0.label, zone: $0.level?.zone.description, percent: $0.level?.percent)
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
                            min: values.min(), max: values.max(), noPeakFrames: noPeak[channel][band],
                            medianPower: Self.median(power[channel][band]),
                            medianRelativePower: Self.median(relative[channel][band]))
                    },
                    quality: ChannelQuality(
                        railedFraction: frames > 0 ? railed[channel] / Double(frames) : 0,
                        unusableFrames: unusable[channel], medianLineShare: Self.median(lineShares[channel]),
                        medianMuscleShare: Self.median(muscleShares[channel]),
                        medianSlowSwing: Self.median(slowSwings[channel])))
            }
            var report = EEGAnalysisReport(
                sampleRate: configuration.sampleRate, frames: frames, samples: samples,
                window: configuration.windowSize, hop: configuration.hop, baselineSeconds: baselineSeconds,
                framesWithFilledSamples: filled, excludedFrames: excluded, channels: channels, artifacts: artifacts,
                zones: zones)
            report.bandPowers = bandPowerSummary()
            return report
        }

        /// Band powers of the mean spectrum of the windows without filled-in samples.
        private func bandPowerSummary() -> BandPowerSummary? {
            guard var powers = bandPowers, averagedWindows > 0 else { return nil }
            for (channel, sums) in spectrumSums.enumerated() {
                let mean = sums.map { $0 / Double(averagedWindows) }
                mean.withUnsafeBufferPointer { powers.compute(channel: channel, spectrum: $0) }
            }
            func number(_ value: Double) -> Double? { value.isFinite ? value : nil }
            return BandPowerSummary(
                bands: powers.bands.bands, unit: "\(configuration.unit)^2", windows: averagedWindows,
                windowsWithFilledSamples: frames - averagedWindows,
                channels: powers.channelLabels.enumerated().map { channel, label in
                    BandPowerSummary.Channel(
                        label: label,
                        absolute: (0..<powers.bandCount).map { number(powers.absolute(channel: channel, band: $0)) },
                        relative: (0..<powers.bandCount).map { number(powers.relative(channel: channel, band: $0)) })
                })
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
