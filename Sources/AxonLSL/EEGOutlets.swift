import AxonEEG
import AxonStreams

/// The EEG engine's results as LSL outlets, next to the raw stream (``LSLOutletSink``):
///
/// - **spectra** (`<name> Spectra`, type `EEGFeatures`, one sample per hop at `rate / hop` Hz, double64): per
///   channel and band, the dominant frequency (Hz) then the band's mean-square power (unit²): channels named
///   `O1 7-13Hz frequency`, `O1 7-13Hz power`, …;
/// - **zones** (`<name> Zones`, type `Markers`, irregular, string): per indicator, the overall zone and percent
///   (`relaxed 50%`) then each channel's.
///
/// Source ids are `<sourceID>/spectra` and `<sourceID>/zones`, stable across runs so consumers recover.
///
///     let outlets = try EEGOutlets(eeg: session.descriptor, configuration: session.configuration)
///     for await frame in session.spectra { try outlets.publish(frame) }
///
/// Threading contract: ``publish(_:)-spectrum`` from one thread at a time and ``publish(_:)-indicators`` from one
/// thread at a time (each outlet has its own caller).
public final class EEGOutlets: Sendable {
    /// The spectra outlet.
    public let spectra: LSLOutlet
    /// The zones outlet.
    public let zones: LSLOutlet

    /// Creates both outlets.
    ///
    /// - Throws: ``LSLError`` when liblsl is missing or refuses a stream.
    public init(
        eeg: StreamDescriptor, configuration: EEGEngine.Configuration, sourceID: String? = nil,
        library: LSLLibrary? = nil
    ) throws(LSLError) {
        let base = sourceID ?? eeg.sourceID
        var channels: [ChannelInfo] = []
        for label in configuration.channelLabels {
            for band in configuration.bands {
                let name = "\(label) \(Self.format(band.lower))-\(Self.format(band.upper))Hz"
                channels.append(ChannelInfo(label: "\(name) frequency", unit: "Hz"))
                channels.append(ChannelInfo(label: "\(name) power", unit: "\(configuration.unit)^2"))
            }
        }
        let spectraDescriptor = StreamDescriptor(
            name: "\(eeg.name) Spectra", contentType: .eegFeatures, channels: channels,
            nominalRate: configuration.sampleRate / Double(configuration.hop), format: .float64,
            sourceID: "\(base)/spectra")
        let zonesDescriptor = StreamDescriptor(
            name: "\(eeg.name) Zones", contentType: .markers,
            channels: [ChannelInfo(label: "overall", unit: "")]
                + configuration.channelLabels.map { ChannelInfo(label: $0, unit: "") },
            nominalRate: 0, format: .string, sourceID: "\(base)/zones")
        spectra = try LSLOutlet(descriptor: spectraDescriptor, channelType: "EEGFeature", library: library)
        zones = try LSLOutlet(descriptor: zonesDescriptor, channelType: "Zone", library: library)
    }

    /// Publishes one spectrum frame, stamped with the time of the push (LSL clock).
    public func publish(_ frame: SpectrumFrame) throws(LSLError) {
        var values: [Double] = []
        values.reserveCapacity(spectra.descriptor.channelCount)
        for channel in frame.channels {
            for band in channel.bands {
                values.append(band.dominantFrequency)
                values.append(band.power)
            }
        }
        try spectra.push(values, timestamp: spectra.now)
    }

    /// Publishes one indicator: the overall zone, then each channel's.
    public func publish(_ indicators: ActivityIndicators) throws(LSLError) {
        func text(_ level: ZoneClassifier.Level) -> String { "\(level.zone) \(Int((level.percent * 100).rounded()))%" }
        try zones.push(strings: [text(indicators.activity)] + indicators.channels.map { text($0.level) },
                       timestamp: zones.now)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
