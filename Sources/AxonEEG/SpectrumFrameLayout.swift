// AxonEEG — where each number of a spectrum frame lives in its flat row of doubles.

/// The flat layout of one spectrum frame: a row of `width` doubles, so a frame moves through an `SPSCRing` as one
/// slot and is read in place without allocation.
///
/// Row: the header lanes (``Header``), then one block per channel of `4·bands + 1 + qualityLanes + bins` doubles:
/// dominant frequency per band (Hz; NaN when the band has no peak), peak-bin power per band (NaN likewise), band
/// power per band (unit²), relative band power per band (share of the reference band), the reference band's
/// power, the channel's signal quality (``Quality``), then the one-sided power spectrum (`bins` values, bin `k` at
/// `k · binWidth` Hz).
///
/// Threading: a plain value, `Sendable`.
public struct SpectrumFrameLayout: Sendable, Hashable {
    /// The header lanes of a frame row.
    public enum Header: Int, CaseIterable, Sendable {
        /// Serial number of the frame, from 0.
        case counter
        /// Index of the window's last sample in the stream (samples since the engine started, from 0).
        case sampleIndex
        /// Time of the window's last sample, milliseconds since 1970 (the seed's `timeframe`).
        case timeframe
        /// How many of the window's samples were filled in for samples the stream lost (0 = an intact window).
        case filledSamples
        /// Baseline state when the frame was made: 0 none, 1 collecting, 2 complete (see ``BaselineState``).
        case baselineState
        /// Spectra collected by the baseline so far.
        case baselineFrames
        /// Artifacts found in the window: bit 0 (1) eyes, bit 1 (2) muscle (see ``SignalQualityThresholds``).
        case artifacts
        /// 1 when the frame was left out of the baseline and the indicators as a whole (filled-in samples, or an
        /// artifact while artifacts are excluded), else 0.
        case excluded
    }

    /// The signal-quality lanes of a channel block (``SignalQualityThresholds`` says what they mean).
    public enum Quality: Int, CaseIterable, Sendable {
        /// Fraction of the window's samples at the rail.
        case railedFraction
        /// Mean-square power from 1 Hz to Nyquist, unit² (near 0 for a flat input).
        case power
        /// Share of the 1 Hz…Nyquist power within ±1 Hz of the mains frequencies.
        case lineShare
        /// Share of the 3 Hz…muscle-band-top power in the muscle band (NaN when the band is above Nyquist).
        case muscleShare
        /// Peak-to-peak swing of the 100 ms-smoothed, straight-line-removed window, unit.
        case slowSwing
        /// 1 when the channel's window was usable (not railed, not flat, analysed), else 0.
        case usable
    }

    /// Channels per frame.
    public let channelCount: Int
    /// Bands per channel.
    public let bandCount: Int
    /// Spectrum bins per channel (`windowSize / 2 + 1`).
    public let binCount: Int

    /// Creates the layout for a stream shape.
    public init(channelCount: Int, bandCount: Int, binCount: Int) {
        precondition(channelCount >= 1 && bandCount >= 1 && binCount >= 1)
        self.channelCount = channelCount
        self.bandCount = bandCount
        self.binCount = binCount
    }

    /// Number of header lanes.
    public static let headerCount = Header.allCases.count
    /// Doubles per channel block.
    public var channelStride: Int { 4 * bandCount + 1 + Quality.allCases.count + binCount }
    /// Doubles per frame row.
    public var width: Int { Self.headerCount + channelCount * channelStride }

    /// Lane of a header field.
    @inlinable public func lane(_ field: Header) -> Int { field.rawValue }
    /// Lane of a channel's dominant frequency in a band.
    @inlinable public func dominantLane(channel: Int, band: Int) -> Int { channelBase(channel) + band }
    /// Lane of a channel's peak-bin power in a band.
    @inlinable public func peakPowerLane(channel: Int, band: Int) -> Int { channelBase(channel) + bandCount + band }
    /// Lane of a channel's band power.
    @inlinable public func bandPowerLane(channel: Int, band: Int) -> Int {
        channelBase(channel) + 2 * bandCount + band
    }
    /// Lane of a channel's relative band power.
    @inlinable public func relativePowerLane(channel: Int, band: Int) -> Int {
        channelBase(channel) + 3 * bandCount + band
    }
    /// Lane of a channel's reference-band power.
    @inlinable public func referencePowerLane(channel: Int) -> Int { channelBase(channel) + 4 * bandCount }
    /// Lane of one of a channel's signal-quality measures.
    @inlinable public func qualityLane(channel: Int, _ measure: Quality) -> Int {
        channelBase(channel) + 4 * bandCount + 1 + measure.rawValue
    }
    /// First lane of a channel's spectrum.
    @inlinable public func spectrumLane(channel: Int) -> Int {
        channelBase(channel) + 4 * bandCount + 1 + Quality.allCases.count
    }

    @inlinable func channelBase(_ channel: Int) -> Int { Self.headerCount + channel * channelStride }
}
