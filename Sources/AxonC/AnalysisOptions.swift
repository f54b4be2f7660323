// AxonC — the options of axon_analyze: a JSON object whose keys are `axon analyze`'s flags.

import AxonDSP
import AxonEEG

/// What `axon_analyze` is asked to do, read from a JSON object named after `axon analyze`'s flags (`channels`,
/// `window`, `hop`, `baseline`, `indicator`, `from`, `to`, `rail`, `blink_scale`, `keep_artifacts`, `bands`). An
/// absent key takes the command's default; an unknown key is an error, so a misspelt option is never ignored.
///
/// Threading: a plain value.
struct AnalysisOptions {
    var channels: [String]?
    var window = 256
    var hop: Int?
    var baseline = 60.0
    var indicator = 10.0
    var from: Double?
    var to: Double?
    var rail: Double?
    var blinkScale = 2.5
    var keepArtifacts = false
    var bands = PowerBands.standard

    static let keys: Set<String> = [
        "channels", "window", "hop", "baseline", "indicator", "from", "to", "rail", "blink_scale", "keep_artifacts",
        "bands",
    ]

    /// Reads `text` (NULL or "" for every default), checking each value as the command line checks its flag.
    init(json text: String?, in function: String) throws(CallFailure) {
        let options = try JSONOptions(text, known: Self.keys, in: function)
        channels = try options.texts("channels", "a non-empty list of channel labels")
        window = try options.whole("window") ?? window
        hop = try options.whole("hop")
        baseline = try options.number("baseline") ?? baseline
        indicator = try options.number("indicator") ?? indicator
        from = try options.number("from")
        to = try options.number("to")
        rail = try options.number("rail")
        blinkScale = try options.number("blink_scale") ?? blinkScale
        keepArtifacts = try options.flag("keep_artifacts") ?? keepArtifacts
        if let text = try options.text("bands", "NAME=LO-HI,… as one string") {
            do throws(PowerBandsError) { bands = try PowerBands(parsing: text) } catch {
                throw .invalidArgument("\(function): bands: \(error)")
            }
        }
        // The command line's own checks (axon analyze's validate()).
        guard window >= 8, hop.map({ $0 >= 1 }) ?? true, baseline >= 0, indicator > 0, baseline.isFinite,
            indicator.isFinite
        else {
            throw .invalidArgument("\(function): need window ≥ 8, hop ≥ 1, baseline ≥ 0, indicator > 0")
        }
        guard blinkScale >= 0, blinkScale.isFinite else {
            throw .invalidArgument("\(function): blink_scale takes a finite number ≥ 0 (0: the absolute 100 µV rule)")
        }
        if let rail, !(rail > 0 && rail.isFinite) {
            throw .invalidArgument("\(function): rail takes a finite number > 0")
        }
    }

    /// The engine configuration `axon analyze` makes from these options, before it is fitted to the recording.
    var configuration: EEGEngine.Configuration {
        var configuration = EEGEngine.Configuration(windowSize: window, hop: hop ?? 250, indicatorPeriod: indicator)
        configuration.quality.excludeArtifacts = !keepArtifacts
        configuration.quality.railMagnitude = rail
        configuration.quality.blinkScale = blinkScale > 0 ? blinkScale : nil
        return configuration
    }
}
