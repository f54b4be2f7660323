/// One channel's settings as the Cyton's channel-settings command carries them:
/// `x CHANNEL POWER GAIN INPUT BIAS SRB2 SRB1 X`, nine ASCII characters without spaces (`x1060110X` is channel 1
/// on, gain 24, normal input, in the bias, SRB2 connected, SRB1 open — the board's default).
///
/// Channels 1–8 are the board's (`1`…`8`); 9–16 the Daisy's (`Q W E R T Y U I`).
///
/// Threading: a value type; share freely.
public struct CytonChannelSettings: Sendable, Hashable {
    /// The channel characters in channel order, 1 … 16.
    public static let channelCharacters: [Character] = Array("12345678QWERTYUI")

    /// The channel, 1…16.
    public var channel: Int
    /// Whether the channel is powered down.
    public var poweredDown: Bool
    /// The channel's gain.
    public var gain: CytonGain
    /// The ADS1299 input type code, 0…7 (0 normal, 1 shorted, … 5 test signal).
    public var input: Int
    /// Whether the channel is in the bias derivation.
    public var bias: Bool
    /// Whether SRB2 is connected.
    public var srb2: Bool
    /// Whether SRB1 is connected.
    public var srb1: Bool

    /// Settings of a channel; the defaults are the board's.
    public init(
        channel: Int, poweredDown: Bool = false, gain: CytonGain = .default, input: Int = 0, bias: Bool = true,
        srb2: Bool = true, srb1: Bool = false
    ) {
        self.channel = channel
        self.poweredDown = poweredDown
        self.gain = gain
        self.input = input
        self.bias = bias
        self.srb2 = srb2
        self.srb1 = srb1
    }

    /// The command's text, validated: a channel outside 1…16 or an input code outside 0…7 throws
    /// ``CytonError/invalidChannelSettings(_:)``.
    public func command() throws(CytonError) -> String {
        guard (1...16).contains(channel) else {
            throw .invalidChannelSettings("channel \(channel) is not 1…16")
        }
        guard (0...7).contains(input) else { throw .invalidChannelSettings("input type \(input) is not 0…7") }
        let flag: (Bool) -> String = { $0 ? "1" : "0" }
        return "x" + String(Self.channelCharacters[channel - 1]) + flag(poweredDown) + String(gain.commandCode)
            + String(input) + flag(bias) + flag(srb2) + flag(srb1) + "X"
    }

    /// Parses a command's text (as a board or a simulator receives it); throws
    /// ``CytonError/invalidChannelSettings(_:)`` naming the field that is wrong.
    public init(command text: String) throws(CytonError) {
        let characters = Array(text)
        guard characters.count == 9, characters.first == "x", characters.last == "X" else {
            throw .invalidChannelSettings("\"\(text)\" is not x…X of 9 characters")
        }
        guard let index = Self.channelCharacters.firstIndex(of: characters[1]) else {
            throw .invalidChannelSettings("\"\(characters[1])\" names no channel")
        }
        guard let gain = CytonGain(commandCode: characters[3]) else {
            throw .invalidChannelSettings("gain code \"\(characters[3])\" is not 0…6")
        }
        func bit(_ position: Int, _ name: String) throws(CytonError) -> Bool {
            switch characters[position] {
            case "0": return false
            case "1": return true
            default: throw .invalidChannelSettings("\(name) \"\(characters[position])\" is not 0 or 1")
            }
        }
        guard let input = characters[4].wholeNumberValue, characters[4].isASCII, (0...7).contains(input) else {
            throw .invalidChannelSettings("input code \"\(characters[4])\" is not 0…7")
        }
        self.init(
            channel: index + 1, poweredDown: try bit(2, "power"), gain: gain, input: input, bias: try bit(5, "bias"),
            srb2: try bit(6, "SRB2"), srb1: try bit(7, "SRB1"))
    }
}
