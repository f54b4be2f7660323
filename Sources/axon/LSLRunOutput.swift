import AxonEEG
import AxonLSL
import AxonStreams
import Foundation

/// `--lsl-out` and `--source lsl:…` for `axon record`: the inlet source, the raw outlet sink, and the spectra
/// and zones outlets fed from an EEG session.
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

    /// The raw stream's outlet.
    func rawSink() -> LSLOutletSink { LSLOutletSink(library: library) }

    /// The spectra and zones outlets of an EEG stream.
    func eegOutlets(eeg: StreamDescriptor, configuration: EEGEngine.Configuration) throws -> EEGOutlets {
        try LSLCommandSupport.run { _ in try EEGOutlets(eeg: eeg, configuration: configuration, library: library) }
    }
}
