import AxonDSP
import AxonEEG
import AxonLSL
import AxonRecording
import AxonStreams
import Foundation

/// `axon record --out session.xdf`: one XDF file with the recorded stream (through ``XDFSink``), a markers stream
/// (lines typed on standard input, the headset's status), and, when zones are computed, the spectra and zones
/// streams in the same layout as the LSL outlets.
final class XDFRecordSession: Sendable {
    let writer: XDFWriter
    private let markers: UInt32
    private let features = ThreadLocked<(spectra: UInt32, zones: UInt32, alpha: UInt32)?>(nil)
    /// The band powers stream and the storage each frame's band powers are computed in.
    private let bandPowers = ThreadLocked<(stream: UInt32, powers: BandPowers)?>(nil)
    private let failed = ThreadLocked(false)
    /// Whether markers are written (not when anonymizing without `--keep-annotations`: free text may name a person).
    private let keepsMarkers: Bool

    init(path: String, recorded: StreamDescriptor, anonymization: Anonymization? = nil) throws {
        writer = try XDFWriter(path: path, anonymization: anonymization)
        keepsMarkers = anonymization?.keepsAnnotations ?? true
        markers = try writer.addStream(
            StreamDescriptor(
                name: "\(recorded.name) Markers", contentType: .markers,
                channels: [ChannelInfo(label: "marker", unit: "")],
                nominalRate: 0, format: .string, sourceID: "\(recorded.sourceID)/markers"))
    }

    /// The sink of the recorded stream; a stream from an LSL inlet keeps the outlet's clock and its time correction
    /// as the file's clock offsets.
    func sink(for source: any SampleSource) -> XDFSink {
        guard let inlet = source as? LSLInletSource else { return XDFSink(writer: writer) }
        return XDFSink(writer: writer) { inlet.timeCorrection }
    }

    /// Adds the spectra, zones, individual alpha frequency and band powers streams of an EEG run (band powers in
    /// `powers`'s bands, the standard five by default).
    func addFeatures(
        eeg: StreamDescriptor, configuration: EEGEngine.Configuration, bandPowers powers: BandPowers? = nil
    ) throws {
        let spectra = try writer.addStream(EEGFeatureStreams.spectra(eeg: eeg, configuration: configuration))
        let zones = try writer.addStream(EEGFeatureStreams.zones(eeg: eeg, configuration: configuration))
        let alpha = try writer.addStream(EEGFeatureStreams.alpha(eeg: eeg, configuration: configuration))
        let powers = try powers ?? BandPowers(bands: .standard, configuration: configuration)
        let stream = try writer.addStream(
            EEGFeatureStreams.bandPowers(eeg: eeg, configuration: configuration, bands: powers.bands))
        features.withLock { $0 = (spectra, zones, alpha) }
        bandPowers.withLock { $0 = (stream, powers) }
    }

    /// A marker, now or at a host time.
    func mark(_ text: String, at time: Double = HostClock.now()) {
        guard keepsMarkers else { return }
        record { try writer.appendStrings(stream: markers, timestamp: time, strings: [text]) }
    }

    /// A zones sample now.
    func zone(_ indicators: ActivityIndicators) {
        guard let ids = features.withLock({ $0 }) else { return }
        record {
            try writer.appendStrings(
                stream: ids.zones, timestamp: HostClock.now(), strings: EEGFeatureStreams.strings(of: indicators))
        }
    }

    /// A spectra sample and a band powers sample now.
    func spectrum(_ frame: SpectrumFrame) {
        guard let ids = features.withLock({ $0 }) else { return }
        append(EEGFeatureStreams.values(of: frame), to: ids.spectra)
        let powers = bandPowers.withLock { state -> (UInt32, [Double])? in
            guard state != nil else { return nil }
            state!.powers.compute(from: frame)
            return (state!.stream, EEGFeatureStreams.values(of: state!.powers))
        }
        if let (stream, values) = powers { append(values, to: stream) }
    }

    /// An individual alpha frequency sample now.
    func alpha(_ update: IndividualAlphaUpdate) {
        guard let ids = features.withLock({ $0 }) else { return }
        append(EEGFeatureStreams.values(of: update), to: ids.alpha)
    }

    /// One sample of `values` on `stream`, stamped now.
    private func append(_ values: [Double], to stream: UInt32) {
        var scratch: [UInt8] = []
        let now = [HostClock.now()]
        record {
            try now.withUnsafeBufferPointer { times in
                try values.withUnsafeBufferPointer { values in
                    try writer.appendSamples(stream: stream, timestamps: times, values: values, scratch: &scratch)
                }
            }
        }
    }

    /// Reports the first failing write on standard error; later ones are dropped.
    private func record(_ body: () throws -> Void) {
        do { try body() } catch {
            if failed.withLock({
                let first = !$0; $0 = true; return first
            }) {
                FileHandle.standardError.write(Data("axon: XDF: \(error)\n".utf8))
            }
        }
    }
}

/// Feeds a session's spectra to the LSL outlets and the XDF file, whichever are on.
func fanOutSpectra(_ spectra: AsyncStream<SpectrumFrame>, outlets: EEGOutlets?, xdf: XDFRecordSession?) -> Task<
    Void, Never
> {
    fanOut(spectra, outlet: "spectra", outlets: outlets, xdf: xdf, write: { $0.spectrum($1) }, publish: { try $0.publish($1) })
}

/// Feeds a session's running individual alpha frequency to the LSL outlets and the XDF file, whichever are on.
func fanOutAlpha(_ updates: AsyncStream<IndividualAlphaUpdate>, outlets: EEGOutlets?, xdf: XDFRecordSession?) -> Task<
    Void, Never
> {
    fanOut(updates, outlet: "alpha", outlets: outlets, xdf: xdf, write: { $0.alpha($1) }, publish: { try $0.publish($1) })
}

/// Writes each element to the XDF file and publishes it on the outlets until the sequence ends; an outlet that
/// fails is reported once and not used again.
private func fanOut<Element: Sendable>(
    _ elements: AsyncStream<Element>, outlet: String, outlets: EEGOutlets?, xdf: XDFRecordSession?,
    write: @escaping @Sendable (XDFRecordSession, Element) -> Void,
    publish: @escaping @Sendable (EEGOutlets, Element) throws -> Void
) -> Task<Void, Never> {
    Task.detached {
        var publishing = outlets != nil
        for await element in elements {
            if let xdf { write(xdf, element) }
            guard publishing, let outlets else { continue }
            do { try publish(outlets, element) } catch {
                FileHandle.standardError.write(Data("axon: \(outlet) outlet: \(error)\n".utf8))
                publishing = false
            }
        }
    }
}
