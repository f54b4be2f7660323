import AxonDSP
import AxonEEG
import AxonStreams

/// How the EEG engine's results travel as streams (LSL outlets, XDF streams): the descriptors and the values of
/// one spectrum frame or one indicator. One layout for every consumer, so a spectra column means the same in an
/// XDF file as in an LSL inlet.
///
/// Threading: stateless; any thread.
public enum EEGFeatureStreams {
    /// The spectra stream: per channel and band, dominant frequency (Hz; NaN when the band holds no peak of its
    /// own) then mean-square power (unit²), one sample per hop; source id `<sourceID>/spectra`.
    public static func spectra(eeg: StreamDescriptor, configuration: EEGEngine.Configuration, sourceID: String? = nil)
        -> StreamDescriptor
    {
        var channels: [ChannelInfo] = []
        for label in configuration.channelLabels {
            for band in configuration.bands {
                let name = "\(label) \(format(band.lower))-\(format(band.upper))Hz"
                channels.append(ChannelInfo(label: "\(name) frequency", unit: "Hz"))
                channels.append(ChannelInfo(label: "\(name) power", unit: "\(configuration.unit)^2"))
            }
        }
        return StreamDescriptor(
            name: "\(eeg.name) Spectra", contentType: .eegFeatures, channels: channels,
            nominalRate: configuration.sampleRate / Double(configuration.hop), format: .float64,
            sourceID: "\(sourceID ?? eeg.sourceID)/spectra")
    }

    /// The zones stream: irregular text, the overall zone then each channel's (`left out` for a channel with no
    /// usable window); source id `<sourceID>/zones`.
    public static func zones(eeg: StreamDescriptor, configuration: EEGEngine.Configuration, sourceID: String? = nil)
        -> StreamDescriptor
    {
        StreamDescriptor(
            name: "\(eeg.name) Zones", contentType: .markers,
            channels: [ChannelInfo(label: "overall", unit: "")]
                + configuration.channelLabels.map { ChannelInfo(label: $0, unit: "") },
            nominalRate: 0, format: .string, sourceID: "\(sourceID ?? eeg.sourceID)/zones")
    }

    /// The individual alpha frequency stream: irregular, per channel the peak alpha frequency and the centre of
    /// gravity, then the pooled ones (Hz; NaN where there is no estimate), one sample per running update
    /// (``AxonEEG/EEGSession/individualAlpha``); source id `<sourceID>/alpha`.
    public static func alpha(eeg: StreamDescriptor, configuration: EEGEngine.Configuration, sourceID: String? = nil)
        -> StreamDescriptor
    {
        let channels = (configuration.channelLabels + ["pooled"]).flatMap { label in
            [ChannelInfo(label: "\(label) PAF", unit: "Hz"), ChannelInfo(label: "\(label) CoG", unit: "Hz")]
        }
        return StreamDescriptor(
            name: "\(eeg.name) Alpha", contentType: .eegFeatures, channels: channels, nominalRate: 0,
            format: .float64, sourceID: "\(sourceID ?? eeg.sourceID)/alpha")
    }

    /// The band powers stream (``AxonEEG/BandPowers``): per channel and band, the absolute power (unit², channel
    /// `O1_alpha_abs`) then the relative power (% of the listed bands' sum, `O1_alpha_rel`), one sample per engine
    /// window at `rate / hop`; type `EEGBandPowers`, source id `<sourceID>/bandpowers`.
    public static func bandPowers(
        eeg: StreamDescriptor, configuration: EEGEngine.Configuration, bands: PowerBands, sourceID: String? = nil
    ) -> StreamDescriptor {
        var channels: [ChannelInfo] = []
        for label in configuration.channelLabels {
            for band in bands.bands {
                channels.append(ChannelInfo(label: "\(label)_\(band.name)_abs", unit: "\(configuration.unit)^2"))
                channels.append(ChannelInfo(label: "\(label)_\(band.name)_rel", unit: "%"))
            }
        }
        return StreamDescriptor(
            name: "\(eeg.name) BandPowers", contentType: "EEGBandPowers", channels: channels,
            nominalRate: configuration.sampleRate / Double(configuration.hop), format: .float64,
            sourceID: "\(sourceID ?? eeg.sourceID)/bandpowers",
            metadata: ["bands": bands.description])
    }

    /// One window's band powers as a band powers sample, written into `sample` (2 · channels · bands values) without
    /// allocating.
    public static func write(_ powers: BandPowers, into sample: UnsafeMutableBufferPointer<Double>) {
        precondition(sample.count == 2 * powers.channelCount * powers.bandCount)
        var index = 0
        for channel in 0..<powers.channelCount {
            for band in 0..<powers.bandCount {
                sample[index] = powers.absolute(channel: channel, band: band)
                sample[index + 1] = powers.relative(channel: channel, band: band)
                index += 2
            }
        }
    }

    /// One window's band powers as a band powers sample.
    public static func values(of powers: BandPowers) -> [Double] {
        var values = [Double](repeating: 0, count: 2 * powers.channelCount * powers.bandCount)
        values.withUnsafeMutableBufferPointer { write(powers, into: $0) }
        return values
    }

    /// One running individual alpha frequency as an alpha sample.
    public static func values(of update: IndividualAlphaUpdate) -> [Double] {
        let estimate = update.estimate
        return estimate.channels.flatMap { [$0.peak ?? .nan, $0.centreOfGravity ?? .nan] }
            + [estimate.peak ?? .nan, estimate.centreOfGravity ?? .nan]
    }

    /// One spectrum frame as a spectra sample.
    public static func values(of frame: SpectrumFrame) -> [Double] {
        var values: [Double] = []
        for channel in frame.channels {
            for band in channel.bands {
                values.append(band.dominantFrequency ?? .nan)
                values.append(band.power)
            }
        }
        return values
    }

    /// One indicator as a zones sample (`relaxed 50%`, …).
    public static func strings(of indicators: ActivityIndicators) -> [String] {
        func text(_ level: ZoneClassifier.Level) -> String { "\(level.zone) \(Int((level.percent * 100).rounded()))%" }
        return [text(indicators.activity)] + indicators.channels.map { $0.level.map(text) ?? "left out" }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
