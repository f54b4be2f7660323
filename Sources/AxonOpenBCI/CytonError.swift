import AxonDevices

/// What went wrong with a Cyton: the serial link, the board's answers, or a command that cannot be sent.
///
/// Threading: a value type; share freely.
public enum CytonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The serial link failed (open, read, write).
    case link(ByteLinkError)
    /// The board did not finish its answer with `$$$` in time; `received` is what came (printable text).
    case noAnswer(command: String, received: String)
    /// The board answered a command with a failure message.
    case rejected(command: String, answer: String)
    /// Channel settings that the board would not accept.
    case invalidChannelSettings(String)
    /// A command for the Daisy's channels on a board without one.
    case noDaisy(channel: Int)
    /// A channel label the board does not have.
    case unknownChannel(String, available: [String])

    /// A sentence for people.
    public var description: String {
        switch self {
        case .link(let error): return "Cyton link: \(error)"
        case .noAnswer(let command, let received):
            return "the board did not answer \"\(command)\" with a complete reply (got \"\(received)\")"
        case .rejected(let command, let answer): return "the board rejected \"\(command)\": \(answer)"
        case .invalidChannelSettings(let reason): return "invalid channel settings: \(reason)"
        case .noDaisy(let channel): return "channel \(channel) needs a Daisy module, and the board has none"
        case .unknownChannel(let label, let available):
            return "the board has no channel \(label) (it has \(available.joined(separator: ", ")))"
        }
    }
}
