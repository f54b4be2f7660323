// AxonEEG — the engine's parameters, with the Brainiac headset's values as defaults.

import AxonDSP

extension EEGEngine {
    /// Everything an ``EEGEngine`` is built from. Every default is the Brainiac headset's: 250 Hz, four channels
    /// T3, O1, T4, O2 in µV, 256-sample windows every 250 samples (one spectrum a second), dominant frequencies in
    /// 3–7, 7–13 and 14–24 Hz, a 60 s baseline and an indicator every 10 s. Other devices run at 256 or 500 Hz
    /// with 4–64 channels: change what differs.
    ///
    /// Durations are counted in samples (``baselineSamples``, ``indicatorSamples``), so the engine's timing is
    /// exact on sample time whatever the wall clock does.
    ///
    /// Threading: a plain value, `Sendable`.
    ///
    ///     var configuration = EEGEngine.Configuration()        // Brainiac
    ///     configuration.sampleRate = 256
    ///     configuration.channelLabels = ["TP9", "AF7", "AF8", "TP10"]
    public struct Configuration: Sendable, Hashable {
        /// Samples per second per channel.
        public var sampleRate: Double
        /// One label per channel, in stream order.
        public var channelLabels: [String]
        /// The channels' unit (for display; power is in this unit squared).
        public var unit: String
        /// Samples per analysis window (also the FFT length).
        public var windowSize: Int
        /// Samples between the ends of consecutive windows: a new spectrum every `hop` samples.
        public var hop: Int
        /// Bands in which the dominant frequency and band power are reported (`data1…3` of the seed).
        public var bands: [FrequencyBand]
        /// Which of ``bands`` plays theta, alpha and beta for the zone classifier.
        public var roles: BandRoles
        /// The broadband range against which each band's relative power (its share) is taken.
        public var referenceBand: FrequencyBand
        /// Seconds of spectra a baseline collects.
        public var baselineDuration: Double
        /// Seconds between indicators once the baseline is complete.
        public var indicatorPeriod: Double
        /// Taper applied to every window.
        public var window: WindowKind
        /// Trend removed from every window before the taper (EEG amplifiers carry large DC offsets).
        public var detrend: DetrendMode
        /// FFTW planning effort (``AxonDSP/RealFFT/PlannerRigor/estimate`` makes set-up instant, for tests).
        public var rigor: RealFFT.PlannerRigor
        /// The zone classifier's thresholds.
        public var classifier: ZoneClassifier.Thresholds
        /// The longest loss bridged with filled-in samples (a straight line across it), in samples; a longer one
        /// restarts the window history instead (``EEGEngine/restartWindow(afterLosing:)``), so an outage is never
        /// synthesised as signal and the work per gap stays bounded.
        public var maxBridgedSamples: Int
        /// What makes a channel's window unusable or a window contaminated.
        public var quality: SignalQualityThresholds
        /// Measure every window's signal quality (railed, flat, mains, muscle, the eyes) against ``quality``; on by
        /// default. Off, the quality lanes hold NaN, a channel's window is usable whenever its analysis gave power
        /// in the reference band, and no window is flagged as contaminated: the engine then does only the spectral
        /// work (about a third less per hop at 4 channels), for callers that judge quality elsewhere or not at all.
        public var measuresSignalQuality = true
        /// How many times the window's fitted 1/f background (``AxonDSP/PowerLawBackground``, 2–40 Hz) a band's
        /// local maximum must reach to count as the band's dominant frequency; below it the band reports no peak.
        /// 4 (6 dB) by default: on 1/f noise theta and beta then report no peak in most windows, while an eyes-closed
        /// alpha rhythm keeps its peak (`docs/eeg-engine.md`). 0 takes any local maximum.
        public var peakProminence = 4.0

        /// Creates a configuration; every parameter defaults to the Brainiac headset's value.
        public init(
            sampleRate: Double = 250,
            channelLabels: [String] = ["T3", "O1", "T4", "O2"],
            unit: String = "µV",
            windowSize: Int = 256,
            hop: Int = 250,
            bands: [FrequencyBand] = EEGEngine.Configuration.brainiacBands,
            roles: BandRoles = BandRoles(theta: 0, alpha: 1, beta: 2),
            referenceBand: FrequencyBand = EEGEngine.Configuration.defaultReferenceBand,
            baselineDuration: Double = 60,
            indicatorPeriod: Double = 10,
            window: WindowKind = .hann,
            detrend: DetrendMode = .mean,
            rigor: RealFFT.PlannerRigor = .measure,
            classifier: ZoneClassifier.Thresholds = .init(),
            maxBridgedSamples: Int = 12,
            quality: SignalQualityThresholds = .init()
        ) {
            self.sampleRate = sampleRate
            self.channelLabels = channelLabels
            self.unit = unit
            self.windowSize = windowSize
            self.hop = hop
            self.bands = bands
            self.roles = roles
            self.referenceBand = referenceBand
            self.baselineDuration = baselineDuration
            self.indicatorPeriod = indicatorPeriod
            self.window = window
            self.detrend = detrend
            self.rigor = rigor
            self.classifier = classifier
            self.maxBridgedSamples = maxBridgedSamples
            self.quality = quality
        }

        // The literals are valid bands, so the `try!` cannot fail.
        /// 3–7 Hz (theta), 7–13 Hz (alpha), 14–24 Hz (beta): the seed's `data1`, `data2`, `data3`.
        public static let brainiacBands: [FrequencyBand] = [
            try! FrequencyBand(3, 7), try! FrequencyBand(7, 13), try! FrequencyBand(14, 24),
        ]
        /// 3–30 Hz: the broadband range relative powers are taken against.
        public static let defaultReferenceBand = try! FrequencyBand(3, 30)

        /// The number of channels.
        public var channelCount: Int { channelLabels.count }
        /// The baseline's length in samples (rounded to the nearest sample).
        public var baselineSamples: Int { Int((baselineDuration * sampleRate).rounded()) }
        /// The indicator period in samples (rounded to the nearest sample).
        public var indicatorSamples: Int { Int((indicatorPeriod * sampleRate).rounded()) }

        /// Checks every parameter against the others; the engine calls it before allocating anything.
        ///
        /// - Throws: ``EEGError/invalidConfiguration(_:)`` naming the first parameter that cannot work, or
        ///   ``EEGError/dsp(_:)`` for a band the FFT grid cannot hold.
        public func validate() throws(EEGError) {
            guard sampleRate.isFinite, sampleRate > 0 else {
                throw .invalidConfiguration("sample rate \(sampleRate) Hz must be finite and positive")
            }
            guard !channelLabels.isEmpty else { throw .invalidConfiguration("at least one channel is needed") }
            guard windowSize >= 8 else { throw .invalidConfiguration("window of \(windowSize) samples is below 8") }
            guard hop >= 1 else { throw .invalidConfiguration("hop of \(hop) samples must be at least 1") }
            guard !bands.isEmpty else { throw .invalidConfiguration("at least one band is needed") }
            for index in [roles.theta, roles.alpha, roles.beta] where !bands.indices.contains(index) {
                throw .invalidConfiguration("band role index \(index) is not one of the \(bands.count) bands")
            }
            guard baselineSamples >= hop else {
                throw .invalidConfiguration(
                    "baseline of \(baselineDuration) s is shorter than one hop (\(hop) samples): it would hold no spectrum")
            }
            guard indicatorSamples >= hop else {
                throw .invalidConfiguration(
                    "indicator period of \(indicatorPeriod) s is shorter than one hop (\(hop) samples)")
            }
            do {
                let grid = try FrequencyGrid(sampleRate: sampleRate, fftSize: windowSize)
                for band in bands + [referenceBand] { _ = try grid.bins(in: band) }
            } catch { throw .dsp(error) }
            guard peakProminence >= 0, peakProminence.isFinite else {
                throw .invalidConfiguration("peak prominence \(peakProminence) must be finite and ≥ 0")
            }
            guard maxBridgedSamples >= 0 else {
                throw .invalidConfiguration("the longest bridged loss (\(maxBridgedSamples) samples) must be ≥ 0")
            }
            try classifier.validate()
            try quality.validate(channelCount: channelCount)
        }
    }

    /// Which configured bands the zone classifier reads as theta, alpha and beta (indices into
    /// ``Configuration/bands``).
    ///
    /// Threading: a plain value, `Sendable`.
    public struct BandRoles: Sendable, Hashable {
        /// Index of the theta band (drowsiness).
        public var theta: Int
        /// Index of the alpha band (relaxation, alpha blocking).
        public var alpha: Int
        /// Index of the beta band (engagement, agitation).
        public var beta: Int

        /// Creates the role map.
        public init(theta: Int, alpha: Int, beta: Int) {
            self.theta = theta
            self.alpha = alpha
            self.beta = beta
        }
    }
}
