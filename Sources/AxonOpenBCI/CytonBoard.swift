import AxonDevices
import AxonStreams
import Foundation

/// A Cyton board behind its USB dongle: the text exchange before streaming (soft reset `v` and its banner, channel
/// settings, `b` start, `s` stop) and the gains the channel settings set, which the decoder needs.
///
///     let board = CytonBoard(port: SerialPort(path: "/dev/ttyUSB0", baudRate: 115_200))
///     let banner = try board.connect()          // 8 channels at 250 Hz, or 16 at 125 Hz with a Daisy
///     try board.configure(CytonChannelSettings(channel: 3, gain: .x8))
///     let source = CytonSource(board: board)    // streams through a pipeline
///
/// Threading contract: not thread-safe; one owner at a time (the command line, then the source's thread).
public final class CytonBoard {
    /// The serial line (115200 baud 8N1 for the dongle).
    public let port: SerialPort
    /// Seconds to wait for a reply ending in `$$$`.
    public var replyTimeout: Double
    /// The banner of the last soft reset.
    public private(set) var banner: CytonBanner?
    /// Each channel's gain, channels 1…16 at indices 0…15, as the last commands set them.
    public private(set) var gains: [CytonGain] = Array(repeating: .default, count: 16)

    /// The dongle's line speed.
    public static let baudRate = 115_200
    /// Samples per second of a board alone.
    public static let sampleRate = 250.0
    /// Frames per second with a Daisy (odd and even packets paired).
    public static let daisySampleRate = 125.0

    /// A board on `port`; nothing is sent until ``connect()``.
    public init(port: SerialPort, replyTimeout: Double = 3) {
        self.port = port
        self.replyTimeout = replyTimeout
    }

    /// A board on the serial device at `path` at 115200 baud.
    public convenience init(path: String) {
        self.init(port: SerialPort(path: path, baudRate: Self.baudRate))
    }

    /// Whether the last banner named a Daisy.
    public var hasDaisy: Bool { banner?.hasDaisy ?? false }
    /// Channels per frame.
    public var channelCount: Int { hasDaisy ? 16 : 8 }
    /// Frames per second.
    public var sampleRate: Double { hasDaisy ? Self.daisySampleRate : Self.sampleRate }

    /// Opens the port, stops a stream an earlier session may have left running, soft-resets the board and reads
    /// its banner. The reset restores every channel's default gain.
    public func connect() throws(CytonError) -> CytonBanner {
        do throws(ByteLinkError) { try port.open() } catch { throw .link(error) }
        try send("s")
        drain(quietFor: 0.1)
        try send("v")
        let reply = try readReply(to: "v")
        let banner = CytonBanner(text: reply)
        self.banner = banner
        gains = Array(repeating: .default, count: 16)
        return banner
    }

    /// Sends channel settings and waits for the board's reply; a reply naming a failure throws
    /// ``CytonError/rejected(command:answer:)``. The channel's gain is tracked for the decoder.
    public func configure(_ settings: CytonChannelSettings) throws(CytonError) {
        let command = try settings.command()
        if settings.channel > 8, !hasDaisy { throw .noDaisy(channel: settings.channel) }
        try send(command)
        let reply = try readReply(to: command)
        if reply.lowercased().contains("failure") {
            throw .rejected(command: command, answer: reply.replacingOccurrences(of: CytonBanner.terminator, with: ""))
        }
        gains[settings.channel - 1] = settings.gain
    }

    /// Turns the lead-off test current on or off for `channel`'s P and N inputs (``CytonLeadOff``) and waits for
    /// the board's reply (sent only while it is not streaming); a failure reply throws
    /// ``CytonError/rejected(command:answer:)``.
    public func setLeadOff(channel: Int, p: Bool, n: Bool) throws(CytonError) {
        if channel > 8, !hasDaisy { throw .noDaisy(channel: channel) }
        let command = try CytonLeadOff.command(channel: channel, p: p, n: n)
        try send(command)
        let reply = try readReply(to: command)
        if reply.lowercased().contains("failure") {
            throw .rejected(command: command, answer: reply.replacingOccurrences(of: CytonBanner.terminator, with: ""))
        }
    }

    /// Stops the binary stream (`s`) and drops the packets still on the line, so the next reply is read clean.
    public func stopStreamingAndDrain() throws(CytonError) {
        try send("s")
        drain(quietFor: 0.1)
    }

    /// Starts the binary stream (`b`); the board answers with packets only.
    public func startStreaming() throws(CytonError) { try send("b") }

    /// Stops the binary stream (`s`).
    public func stopStreaming() throws(CytonError) { try send("s") }

    /// A decoder set up for this board's Daisy and gains.
    public func makeDecoder() -> CytonDecoder {
        let decoder = CytonDecoder(daisy: hasDaisy)
        for (index, gain) in gains.enumerated() { decoder.setGain(gain, channel: index + 1) }
        return decoder
    }

    /// Closes the port; idempotent.
    public func close() { port.close() }

    // MARK: - Text exchange

    private func send(_ text: String) throws(CytonError) {
        do throws(ByteLinkError) {
            try port.write(Array(text.utf8), deadline: HostClock.now() + replyTimeout)
        } catch { throw .link(error) }
    }

    /// Reads until `$$$` or the timeout; returns the text with the terminator.
    private func readReply(to command: String) throws(CytonError) -> String {
        var received: [UInt8] = []
        let deadline = HostClock.now() + replyTimeout
        let terminator = Array(CytonBanner.terminator.utf8)
        while true {
            do throws(ByteLinkError) {
                received += try port.read(deadline: deadline)
            } catch .timeout {
                throw .noAnswer(command: command, received: Self.printable(received))
            } catch { throw .link(error) }
            if received.count >= terminator.count, Array(received.suffix(terminator.count)) == terminator {
                return String(decoding: received, as: UTF8.self)
            }
        }
    }

    /// Reads and drops whatever arrives until the line has been quiet for `seconds` (at most one reply timeout).
    private func drain(quietFor seconds: Double) {
        let limit = HostClock.now() + replyTimeout
        while HostClock.now() < limit, (try? port.read(deadline: HostClock.now() + seconds)) != nil {}
    }

    private static func printable(_ bytes: [UInt8]) -> String {
        String(bytes.suffix(200).map { (0x20..<0x7F).contains($0) || $0 == 0x0A ? Character(UnicodeScalar($0)) : "·" })
    }
}
