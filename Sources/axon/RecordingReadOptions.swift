import ArgumentParser
import AxonRecording

/// What a recording file cannot say about itself, for the commands that read files (`info`, `convert`, `analyze`,
/// `replay`): the board of a BrainFlow-format file, whose rows carry no header; and whether a BDF's BioSemi Status
/// channel, always decoded into trigger and device status markers, is also kept as a raw channel.
struct RecordingReadOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The board a BrainFlow-format file (BrainFlow-RAW_*.csv) was recorded from: "
                + BrainFlowBoard.allCases.map(\.rawValue).joined(separator: ", ")
                + ". Default: from its column count (24 Cyton, 32 Cyton + Daisy, 15 Ganglion, 25 Ganglion WiFi).",
            valueName: "board"))
    var board: BrainFlowBoard?

    @Flag(
        help: ArgumentHelp(
            "Keep a BDF's BioSemi Status channel as a channel of raw 24-bit Status words (unit \"\"). Its triggers "
                + "and device status events become markers either way; without this flag the channel is left out."))
    var keepStatusChannel = false

    /// Reads `path` in whichever format it is, with these options.
    func read(path: String) throws -> Recording {
        try RecordingReader.read(
            path: path, options: .init(brainFlowBoard: board, keepsStatusChannel: keepStatusChannel))
    }
}

extension BrainFlowBoard: ExpressibleByArgument {}
