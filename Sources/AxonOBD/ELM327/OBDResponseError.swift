/// An answer from the dongle that carries no usable value: one of the ELM327's own error answers, or bytes that do
/// not parse as the answer to the request. `command` is what was sent ("010C").
///
/// Threading: a value type; share freely.
public enum OBDResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `NO DATA`: no ECU answered (the PID is not supported, or the ignition is off).
    case noData(command: String)
    /// `UNABLE TO CONNECT`: the dongle found no OBD protocol on the bus.
    case unableToConnect(command: String)
    /// `?`: the dongle did not understand the command.
    case notUnderstood(command: String)
    /// A bus or adapter error: `CAN ERROR`, `BUS INIT: ...ERROR`, `BUS ERROR`, `STOPPED`, `BUFFER FULL`,
    /// `DATA ERROR`, `FB ERROR`, `<RX ERROR`, `ACT ALERT`, `LV RESET`; `message` is the dongle's line.
    case busError(command: String, message: String)
    /// A line that is not hex data, not a frame of a multi-frame answer and not a known ELM327 message.
    case garbage(command: String, line: String)
    /// Hex with an odd number of digits, or an answer shorter than its PID needs (`expected` bytes, `received`).
    case truncated(command: String, expected: Int, received: Int)
    /// An answer for another request: the mode or PID echoed is not the one asked for.
    case wrongEcho(command: String, expected: [UInt8], received: [UInt8])
    /// The answer ended (`>` prompt) with no data line at all.
    case empty(command: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .noData(let command): return "\(command): NO DATA (not supported by the vehicle, or no ECU answered)"
        case .unableToConnect(let command): return "\(command): UNABLE TO CONNECT (no OBD protocol found on the bus)"
        case .notUnderstood(let command): return "\(command): the adapter did not understand the command (?)"
        case .busError(let command, let message): return "\(command): bus error \"\(message)\""
        case .garbage(let command, let line): return "\(command): unparseable answer line \"\(line)\""
        case .truncated(let command, let expected, let received):
            return "\(command): truncated answer (\(received) bytes, \(expected) needed)"
        case .wrongEcho(let command, let expected, let received):
            return "\(command): answer echoes \(Self.hex(received)), expected \(Self.hex(expected))"
        case .empty(let command): return "\(command): empty answer"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
