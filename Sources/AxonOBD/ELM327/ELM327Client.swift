import AxonStreams

/// The ELM327 command interface over any ``OBDByteLink``: initialisation and prompt-framed request/response with a
/// timeout, one command in flight at a time.
///
///     let client = ELM327Client(link: TCPLink(host: "127.0.0.1", port: 35000))
///     let banner = try client.open()                    // ATZ, ATE0, ATL0, ATS0, ATH0, ATSP0
///     let messages = try client.request("010C")         // [[0x41, 0x0C, 0x1A, 0xF8]]
///
/// Threading contract: `Sendable`; any thread may call any method. Calls are serialised by one lock that is held
/// for a whole exchange (write the command, read to the `>` prompt), so a request never interleaves with another —
/// the seed's sequential basic channel. A caller waits at most its own timeout plus the exchange in progress.
public final class ELM327Client: Sendable {
    /// Seconds to wait for an answer to an ordinary command.
    public let timeout: Double
    /// Seconds to wait for the reset and the first OBD request (`SEARCHING...` takes seconds on a real bus).
    public let slowTimeout: Double
    /// The endpoint's name, from the link.
    public let endpoint: String
    private let link: ThreadLocked<any OBDByteLink>
    /// The longest answer accepted before the prompt (a VIN or a long DTC list is well under this).
    static let maximumAnswerBytes = 4096

    /// Wraps `link`; nothing is sent until ``open()``.
    public init(link: sending any OBDByteLink, timeout: Double = 2, slowTimeout: Double = 10) {
        self.endpoint = link.endpoint
        self.link = ThreadLocked(link)
        self.timeout = timeout
        self.slowTimeout = slowTimeout
    }

    /// Opens the link and initialises the dongle: `ATZ` (reset; its banner is returned, e.g. "ELM327 v1.5"),
    /// `ATE0` echo off, `ATL0` linefeeds off, `ATS0` spaces off, `ATH0` headers off, `ATSP0` automatic protocol.
    ///
    /// - Throws: ``ELM327Error/notAnELM327(endpoint:banner:)`` when the reset is not answered with an ELM327 banner,
    ///   link and response errors otherwise.
    @discardableResult
    public func open() throws(ELM327Error) -> String {
        try link.withLock { (link: inout any OBDByteLink) throws(ELM327Error) -> Void in
            do throws(OBDLinkError) { try link.open() } catch { throw .link(error) }
        }
        // Some dongles need a carriage return to end whatever a previous session left half-typed.
        let reset = try exchange("ATZ", timeout: slowTimeout)
        guard
            let banner = reset.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
                .map({ String($0).trimmingSpaces() }).first(where: { $0.uppercased().contains("ELM327") })
        else {
            let seen = reset.split(whereSeparator: { $0 == "\r" || $0 == "\n" }).map(String.init)
                .filter { $0 != "ATZ" }.joined(separator: " | ")
            throw .notAnELM327(endpoint: endpoint, banner: seen)
        }
        for command in ["ATE0", "ATL0", "ATS0", "ATH0", "ATSP0"] {
            let answer = try exchange(command, timeout: timeout)
            do {
                _ = try ELM327ResponseParser.lines(answer, command: command)
            } catch { throw .response(error) }
        }
        return banner
    }

    /// The adapter's device description (`AT@1`), e.g. "OBDII to RS232 Interpreter".
    public func deviceDescription() throws(ELM327Error) -> String {
        let answer = try exchange("AT@1", timeout: timeout)
        do {
            return try ELM327ResponseParser.lines(answer, command: "AT@1").joined(separator: " ")
        } catch { throw .response(error) }
    }

    /// Sends an OBD request (hex, e.g. "010C", "03", "0902") and returns its messages (see
    /// ``ELM327ResponseParser/messages(_:command:)``) within `timeout` (default ``timeout``). The first request after
    /// ``open()`` may see `SEARCHING...` while the dongle finds the protocol: pass ``slowTimeout`` for it.
    public func request(_ command: String, timeout: Double? = nil) throws(ELM327Error) -> [[UInt8]] {
        let answer = try exchange(command, timeout: timeout ?? self.timeout)
        do {
            return try ELM327ResponseParser.messages(answer, command: command)
        } catch { throw .response(error) }
    }

    /// Sends any command and returns the raw text before the prompt (for `ATRV`, `ATDPN`, …).
    public func exchange(_ command: String, timeout: Double) throws(ELM327Error) -> String {
        try link.withLock { (link: inout any OBDByteLink) throws(ELM327Error) -> String in
            let deadline = HostClock.now() + timeout
            // An answer that came after an earlier command timed out would be taken for this one's: drop it.
            while true {
                do throws(OBDLinkError) { _ = try link.read(deadline: 0) } catch .timeout { break } catch {
                    throw .link(error)
                }
            }
            do throws(OBDLinkError) {
                try link.write(Array((command + "\r").utf8), deadline: deadline)
            } catch { throw .link(error) }
            var received: [UInt8] = []
            while true {
                let chunk: [UInt8]
                do throws(OBDLinkError) { chunk = try link.read(deadline: deadline) } catch { throw .link(error) }
                if let prompt = chunk.firstIndex(of: UInt8(ascii: ">")) {
                    received += chunk[..<prompt]
                    // Bytes after the prompt belong to nothing we asked for: a dongle speaks only when asked.
                    break
                }
                received += chunk
                if received.count > Self.maximumAnswerBytes {
                    throw .answerTooLong(command: command, bytes: received.count)
                }
            }
            // NUL bytes: some clones send them after a reset.
            return String(decoding: received.filter { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Closes the link. Any thread; waits for an exchange in progress.
    public func close() {
        link.withLock { $0.close() }
    }
}
