import ArgumentParser
import AxonRecording

/// What a recording file cannot say about itself, for the commands that read files (`info`, `convert`, `analyze`,
/// `replay`): today the board of a BrainFlow-format file, whose rows carry no header.
struct RecordingReadOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The board a BrainFlow-format file (BrainFlow-RAW_*.csv) was recorded from: "
                + BrainFlowBoard.allCases.map(\.rawValue).joined(separator: ", ")
                + ". Default: from its column count (24 Cyton, 32 Cyton + Daisy, 15 Ganglion, 25 Ganglion WiFi).",
            valueName: "board"))
    var board: BrainFlowBoard?

    /// Reads `path` in whichever format it is, with these options.
    func read(path: String) throws -> Recording {
        try RecordingReader.read(path: path, options: .init(brainFlowBoard: board))
    }
}

extension BrainFlowBoard: ExpressibleByArgument {}
