// AxonEEG — one second's spectra, dominant frequencies and band powers, as an owned value.

import AxonDSP

/// The engine's result for one window (one hop): per channel, the dominant frequency and power of each band and
/// the full spectrum. The seed's `CB_fftDataUpdatedWithDictionary` payload: `timeframe`, `counter`, and per
/// channel `data1…3` = ``ChannelSpectrum/bands```[0…2].dominantFrequency`.
///
/// Threading: a plain value, `Sendable`. Building one allocates; the engine's loop works on
/// ``SpectrumFrameView`` and frames are made on the delivery side.
public struct SpectrumFrame: Sendable, Hashable {
    /// Serial number of the frame, from 0.
    public var counter: Int
    /// Index of the window's last sample in the stream.
    public var sampleIndex: Int
    /// Time of the window's last sample, milliseconds since 1970.
    public var timeframe: Double
    /// Samples of the window filled in for lost ones (0 = intact).
    public var filledSamples: Int
    /// The baseline's state when the frame was made.
    public var baselineState: BaselineState
    /// Artifacts found in the window.
    public var artifacts: ArtifactKinds
    /// Whether the frame was left out of the baseline and the indicators as a whole.
    public var isExcluded: Bool
    /// Hz between spectrum bins.
    public var binWidth: Double
    /// One entry per channel, in stream order.
    public var channels: [ChannelSpectrum]

    /// One channel's results.
    public struct ChannelSpectrum: Sendable, Hashable {
        /// The channel's label.
        public var label: String
        /// One entry per configured band, in order.
        public var bands: [BandMeasure]
        /// Mean-square power in the reference band, unit².
        public var referencePower: Double
        /// The window's signal quality on this channel.
        public var quality: SignalQuality
        /// The one-sided power spectrum, bin `k` at `k · binWidth` Hz.
        public var spectrum: [Double]
    }

    /// One band of one channel.
    public struct BandMeasure: Sendable, Hashable {
        /// The band.
        public var band: FrequencyBand
        /// The dominant frequency inside the band, Hz (sub-bin): a local maximum inside the band, `nil` when the
        /// band holds none (no peak).
        public var dominantFrequency: Double?
        /// Power of the dominant bin, unit² (`nil` with no peak).
        public var peakPower: Double?
        /// Mean-square power in the band, unit².
        public var power: Double
        /// Share of the reference band's power.
        public var relativePower: Double
    }

    /// Copies a frame out of its row.
    public init(_ view: SpectrumFrameView, labels: [String], bands: [FrequencyBand], binWidth: Double) {
        precondition(labels.count == view.layout.channelCount && bands.count == view.layout.bandCount)
        self.counter = view.counter
        self.sampleIndex = view.sampleIndex
        self.timeframe = view.timeframe
        self.filledSamples = view.filledSamples
        self.baselineState = view.baselineState
        self.artifacts = view.artifacts
        self.isExcluded = view.isExcluded
        self.binWidth = binWidth
        self.channels = labels.enumerated().map { channel, label in
            ChannelSpectrum(
                label: label,
                bands: bands.enumerated().map { index, band in
                    BandMeasure(
                        band: band, dominantFrequency: view.dominantFrequency(channel: channel, band: index),
                        peakPower: view.peakPower(channel: channel, band: index),
                        power: view.bandPower(channel: channel, band: index),
                        relativePower: view.relativePower(channel: channel, band: index))
                },
                referencePower: view.referencePower(channel: channel),
                quality: SignalQuality(view, channel: channel),
                spectrum: Array(view.spectrum(channel: channel)))
        }
    }
}
