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
/// Threading contract: each `publish` overload from one thread at a time (each outlet has its own caller).
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
        let spectraDescriptor = EEGFeatureStreams.spectra(eeg: eeg, configuration: configuration, sourceID: sourceID)
        let zonesDescriptor = EEGFeatureStreams.zones(eeg: eeg, configuration: configuration, sourceID: sourceID)
        spectra = try LSLOutlet(descriptor: spectraDescriptor, channelType: "EEGFeature", library: library)
        zones = try LSLOutlet(descriptor: zonesDescriptor, channelType: "Zone", library: library)
    }

    /// Publishes one spectrum frame, stamped with the time of the push (LSL clock).
    public func publish(_ frame: SpectrumFrame) throws(LSLError) {
        try spectra.push(EEGFeatureStreams.values(of: frame), timestamp: spectra.now)
    }

    /// Publishes one indicator: the overall zone, then each channel's.
    public func publish(_ indicators: ActivityIndicators) throws(LSLError) {
        try zones.push(strings: EEGFeatureStreams.strings(of: indicators), timestamp: zones.now)
    }
}
