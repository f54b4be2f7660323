import ArgumentParser
import AxonEEG
import AxonLSL
import AxonStreams
import Foundation

/// `--lsl-out` and `--source lsl:…` for `axon record` and `axon demo`: the inlet source, the raw outlet sink, the
/// status outlet, and the spectra and zones outlets fed from an EEG session.
struct LSLRunOutput {
    let library: LSLLibrary

    /// Loads liblsl with `--lsl-config` (or the machine-only default); one clear line and a failure if missing.
    init(configuration: String?) throws {
        library = try LSLCommandSupport.run(configuration: configuration) { $0 }
    }

    /// The inlet on the stream `selector` names.
    func source(_ selector: LSLStreamSelector, duration: Double?) throws -> LSLInletSource {
        try LSLCommandSupport.run { _ in
            try LSLInletSource(selector: selector, options: .init(duration: duration), library: library)
        }
    }

    /// Starts a marker inlet on `--markers lsl:SELECTOR`; `mark` gets each sample's text and host time.
    func markers(_ option: String, mark: @escaping @Sendable (String, Double) -> Void) throws -> LSLMarkerInlet {
        guard let selector = try LSLCommandSupport.selector(source: option) else {
            throw ValidationError("--markers takes lsl:NAME, lsl:type=TYPE or lsl:source_id=ID")
        }
        let inlet = try LSLCommandSupport.run { _ in try LSLMarkerInlet(selector: selector, library: library) }
        try inlet.start { event in
            mark(event.payload.joined(separator: " "), event.deviceTime ?? event.arrivalTime)
        }
        return inlet
    }

    /// The raw stream's outlet; its gap records also go to `status`.
    func rawSink(status: StatusOutlet? = nil) -> LSLOutletSink { LSLOutletSink(library: library, status: status) }

    /// The run's status outlet (`<name> Status`).
    func statusOutlet(for stream: StreamDescriptor) throws -> StatusOutlet {
        try LSLCommandSupport.run { _ in try StatusOutlet(stream: stream, library: library) }
    }

    /// The spectra, zones, alpha and band powers outlets of an EEG stream.
    func eegOutlets(eeg: StreamDescriptor, configuration: EEGEngine.Configuration, bandPowers: BandPowers? = nil)
        throws -> EEGOutlets
    {
        try LSLCommandSupport.run { _ in
            try EEGOutlets(eeg: eeg, configuration: configuration, bandPowers: bandPowers, library: library)
        }
    }
}
