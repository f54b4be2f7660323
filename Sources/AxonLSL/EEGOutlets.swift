import AxonDSP
import AxonEEG
import AxonStreams

/// The EEG engine's results as LSL outlets, next to the raw stream (``LSLOutletSink``):
///
/// - **spectra** (`<name> Spectra`, type `EEGFeatures`, one sample per hop at `rate / hop` Hz, double64): per
///   channel and band, the dominant frequency (Hz) then the band's mean-square power (unit²): channels named
///   `O1 7-13Hz frequency`, `O1 7-13Hz power`, …;
/// - **zones** (`<name> Zones`, type `Markers`, irregular, string): per indicator, the overall zone and percent
///   (`relaxed 50%`) then each channel's;
/// - **alpha** (`<name> Alpha`, type `EEGFeatures`, irregular, double64): per running individual alpha frequency
///   update, each channel's PAF and CoG then the pooled ones (Hz, NaN for none);
/// - **band powers** (`<name> BandPowers`, type `EEGBandPowers`, one sample per hop, double64): per channel and
///   band (``AxonDSP/PowerBands``), the absolute power (unit², `O1_alpha_abs`) then the relative power (%,
///   `O1_alpha_rel`) of the window (``AxonEEG/BandPowers``), pushed with each spectra sample.
///
/// Source ids are `<sourceID>/spectra`, `<sourceID>/zones`, `<sourceID>/alpha` and `<sourceID>/bandpowers`, stable
/// across runs so consumers recover.
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
    /// The individual alpha frequency outlet.
    public let alpha: LSLOutlet
    /// The band powers outlet.
    public let bandPowers: LSLOutlet
    /// The band powers of the last frame and the sample they make, reused for every frame (no allocation per frame
    /// beyond what the spectra sample takes). Locked only against misuse: `publish(_: SpectrumFrame)` has one caller.
    private let bandPowerScratch: ThreadLocked<(powers: BandPowers, sample: [Double])>

    /// Creates the outlets; the band powers outlet reports `bandPowers`'s bands (made for `configuration`), by
    /// default ``AxonDSP/PowerBands/standard``.
    ///
    /// - Throws: ``LSLError`` when liblsl is missing or refuses a stream.
    public init(
        eeg: StreamDescriptor, configuration: EEGEngine.Configuration, bandPowers powers: BandPowers? = nil,
        sourceID: String? = nil, library: LSLLibrary? = nil
    ) throws(LSLError) {
        guard let powers = powers ?? (try? BandPowers(bands: .standard, configuration: configuration)) else {
            throw .unsupportedStream("the standard band powers do not fit \(configuration.sampleRate) Hz")
        }
        let spectraDescriptor = EEGFeatureStreams.spectra(eeg: eeg, configuration: configuration, sourceID: sourceID)
        let zonesDescriptor = EEGFeatureStreams.zones(eeg: eeg, configuration: configuration, sourceID: sourceID)
        spectra = try LSLOutlet(descriptor: spectraDescriptor, channelType: "EEGFeature", library: library)
        zones = try LSLOutlet(descriptor: zonesDescriptor, channelType: "Zone", library: library)
        alpha = try LSLOutlet(
            descriptor: EEGFeatureStreams.alpha(eeg: eeg, configuration: configuration, sourceID: sourceID),
            channelType: "EEGFeature", library: library)
        bandPowers = try LSLOutlet(
            descriptor: EEGFeatureStreams.bandPowers(
                eeg: eeg, configuration: configuration, bands: powers.bands, sourceID: sourceID),
            channelType: "EEGBandPower", library: library)
        bandPowerScratch = ThreadLocked(
            (powers, [Double](repeating: 0, count: 2 * powers.channelCount * powers.bandCount)))
    }

    /// Publishes one spectrum frame on the spectra outlet and its band powers on the band powers outlet, each
    /// stamped with the time of its push (LSL clock).
    public func publish(_ frame: SpectrumFrame) throws(LSLError) {
        try spectra.push(EEGFeatureStreams.values(of: frame), timestamp: spectra.now)
        try bandPowerScratch.withLock { (scratch) throws(LSLError) in
            scratch.powers.compute(from: frame)
            let powers = scratch.powers
            try scratch.sample.withUnsafeMutableBufferPointer { (sample) throws(LSLError) in
                EEGFeatureStreams.write(powers, into: sample)
                try bandPowers.push(UnsafeBufferPointer(sample), timestamp: bandPowers.now)
            }
        }
    }

    /// Publishes one indicator: the overall zone, then each channel's.
    public func publish(_ indicators: ActivityIndicators) throws(LSLError) {
        try zones.push(strings: EEGFeatureStreams.strings(of: indicators), timestamp: zones.now)
    }

    /// Publishes one running individual alpha frequency, stamped with the time of the push (LSL clock).
    public func publish(_ update: IndividualAlphaUpdate) throws(LSLError) {
        try alpha.push(EEGFeatureStreams.values(of: update), timestamp: alpha.now)
    }
}
