/// Turns the text an ELM327 sends before its `>` prompt into OBD messages (byte arrays), or a typed error.
///
/// Handles: the command's echo (when echo is still on), blank lines, `SEARCHING...` and `BUS INIT: ...OK`
/// progress lines, spaces between bytes (`41 0C 1A F8` as well as `410C1AF8`), several ECUs answering (one message
/// per line), and ISO 15765 multi-frame answers with headers off: a byte-count line (`014`) followed by numbered
/// frames (`0: 490201575030`, `1: …`), assembled into one message cut to the announced length.
///
/// Pure and total: every input gives messages or an ``OBDResponseError`` (the fuzz test checks it).
/// Threading: stateless; call from any thread.
public enum ELM327ResponseParser {
    /// The ELM327's error answers, by the prefix of their line.
    static let busErrorPrefixes = [
        "CAN ERROR", "BUS ERROR", "BUS BUSY", "STOPPED", "BUFFER FULL", "DATA ERROR", "FB ERROR", "<RX ERROR",
        "RX ERROR", "ACT ALERT", "LV RESET", "ERR",
    ]

    /// The meaningful lines of an answer, as sent (case kept): split at CR/LF, trimmed, without the echo of `command`,
    /// blank lines and progress lines. `?`, `NO DATA`, `UNABLE TO CONNECT` and bus errors throw.
    public static func lines(_ text: String, command: String) throws(OBDResponseError) -> [String] {
        var result: [String] = []
        let echo = command.uppercased().filter { $0 != " " }
        for raw in text.split(whereSeparator: { $0 == "\r" || $0 == "\n" }) {
            let original = String(raw).trimmingSpaces()
            let line = original.uppercased()
            if line.isEmpty || line.filter({ $0 != " " }) == echo { continue }
            if line.hasPrefix("SEARCHING") { continue }
            if line.hasPrefix("BUS INIT") {
                if line.contains("ERROR") { throw .busError(command: command, message: line) }
                // "BUS INIT: ...OK" on ISO 9141/14230 buses; the data may follow on the same line after "OK".
                continue
            }
            if line == "?" { throw .notUnderstood(command: command) }
            if line.hasPrefix("NO DATA") { throw .noData(command: command) }
            if line.hasPrefix("UNABLE TO CONNECT") { throw .unableToConnect(command: command) }
            if busErrorPrefixes.contains(where: { line.hasPrefix($0) }) {
                throw .busError(command: command, message: line)
            }
            result.append(original)
        }
        guard !result.isEmpty else { throw .empty(command: command) }
        return result
    }

    /// The OBD messages of an answer: one per single-frame line, one per multi-frame group.
    public static func messages(_ text: String, command: String) throws(OBDResponseError) -> [[UInt8]] {
        let lines = try lines(text, command: command)
        var messages: [[UInt8]] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if let length = byteCountHeader(line) {
                // Multi-frame: frames numbered 0, 1, …, F, 0, … (the sequence wraps at 16).
                var message: [UInt8] = []
                var expectedFrame = 0
                index += 1
                while index < lines.count, let numbered = try frame(lines[index], command: command) {
                    guard numbered.number == expectedFrame % 16 else {
                        throw .garbage(command: command, line: lines[index])
                    }
                    message += numbered.payload
                    expectedFrame += 1
                    index += 1
                }
                guard message.count >= length else {
                    throw .truncated(command: command, expected: length, received: message.count)
                }
                messages.append(Array(message.prefix(length)))
                continue
            }
            if line.contains(":") { throw .garbage(command: command, line: line) }
            messages.append(try hexBytes(line, command: command))
            index += 1
        }
        return messages
    }

    /// The byte count that starts a multi-frame answer: exactly three hex digits (`014` = 20 bytes).
    static func byteCountHeader(_ line: String) -> Int? {
        guard line.count == 3, line.allSatisfy(\.isHexDigit) else { return nil }
        return Int(line, radix: 16)
    }

    /// `N: hex` → (N, bytes); `nil` for a line that is not a numbered frame.
    static func frame(_ line: String, command: String) throws(OBDResponseError) -> (number: Int, payload: [UInt8])? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let number = line[..<colon].trimmingSpaces()
        guard number.count == 1, let value = Int(number, radix: 16) else { return nil }
        let payload = String(line[line.index(after: colon)...])
        return (value, try hexBytes(payload, command: command))
    }

    /// Hex digits (spaces allowed between bytes) → bytes.
    public static func hexBytes(_ text: String, command: String) throws(OBDResponseError) -> [UInt8] {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
        guard !digits.isEmpty else { throw .empty(command: command) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for digit in digits {
            guard let nibble = hexValue(digit) else { throw .garbage(command: command, line: text) }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { throw .truncated(command: command, expected: bytes.count + 1, received: bytes.count) }
        return bytes
    }

    static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
