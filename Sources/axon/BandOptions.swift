import ArgumentParser
import AxonDSP
import AxonEEG

/// `--bands NAME=LO-HI,…` for the commands that compute spectra (`analyze`, `view`, `demo`, `record`): the named
/// bands whose absolute and relative powers they report (``AxonDSP/PowerBands``; default
/// `delta=1-4,theta=4-8,alpha=8-13,beta=13-30,gamma=30-45`). The engine's three dominant-frequency bands and the
/// zones are not changed by it.
///
/// The names and edges are checked when the command line is parsed; the Nyquist frequency and the bin spacing only
/// once the stream's rate is known (``powers(configuration:)``). Both are usage errors (exit 64).
struct BandOptions: ParsableArguments {
    @Option(
        name: .customLong("bands"),
        help: ArgumentHelp(
            "Bands for the band powers (absolute µV², relative % of their sum), NAME=LO-HI Hz with LO ≤ f < HI, "
                + "comma-separated; default \(PowerBands.standardText).",
            valueName: "name=lo-hi,…"))
    var text: String?

    /// The bands asked for, or the standard five.
    func bands() throws -> PowerBands {
        guard let text else { return .standard }
        do { return try PowerBands(parsing: text) } catch { throw ValidationError("--bands: \(error)") }
    }

    func validate() throws { _ = try bands() }

    /// Band-power storage for an engine configured with `configuration`; a band above its Nyquist frequency or
    /// narrower than its bins is a usage error.
    func powers(configuration: EEGEngine.Configuration) throws -> BandPowers {
        let bands = try bands()
        do { return try BandPowers(bands: bands, configuration: configuration) } catch let error as PowerBandsError {
            throw ValidationError(
                "--bands: \(error) at \(PowerBands.hertz(configuration.sampleRate)) Hz with "
                    + "\(configuration.windowSize)-sample windows")
        }
    }
}
