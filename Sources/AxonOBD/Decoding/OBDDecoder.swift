/// Decodes OBD-II (SAE J1979) answers — the messages ``ELM327ResponseParser`` returns — into values.
///
/// Every function checks the echo (mode + 0x40, and the PID) and the length before reading a byte, and picks the
/// first message that answers the request when several ECUs answered.
/// Threading: stateless; call from any thread.
public enum OBDDecoder {
    /// The data bytes of the mode-01 answer for `pid` (after `41 PP`), at least `byteCount` of them.
    public static func mode01Data(
        _ messages: [[UInt8]], pid: UInt8, byteCount: Int, command: String
    ) throws(OBDResponseError) -> [UInt8] {
        let expected: [UInt8] = [0x41, pid]
        guard let message = messages.first(where: { $0.starts(with: expected) }) else {
            let received = messages.first.map { Array($0.prefix(2)) } ?? []
            if received.count < 2 {
                throw .truncated(command: command, expected: 2 + byteCount, received: received.count)
            }
            throw .wrongEcho(command: command, expected: expected, received: received)
        }
        guard message.count >= 2 + byteCount else {
            throw .truncated(command: command, expected: 2 + byteCount, received: message.count)
        }
        return Array(message[2..<(2 + byteCount)])
    }

    /// The PIDs a supported-PIDs answer (`41 00 A B C D`, `41 20 …`, …) marks as supported: bit 7 of A is
    /// `base + 1`, bit 0 of D is `base + 0x20` (which, when set, says the next range can be asked).
    public static func supportedPIDs(base: UInt8, data: [UInt8]) -> Set<UInt8> {
        var pids: Set<UInt8> = []
        for (byteIndex, byte) in data.prefix(4).enumerated() {
            for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                let offset = byteIndex * 8 + bit + 1
                if Int(base) + offset <= 0xFF { pids.insert(base + UInt8(offset)) }
            }
        }
        return pids
    }

    /// The stored trouble codes of a mode-03 answer (`43 …`, two bytes per code; `00 00` pads).
    ///
    /// CAN answers carry a count byte after `43`: when the byte count after `43` is odd, the first byte is taken as
    /// that count.
    public static func troubleCodes(_ messages: [[UInt8]], command: String = "03") throws(OBDResponseError) -> [String]
    {
        var codes: [String] = []
        for message in messages {
            guard message.first == 0x43 else {
                throw .wrongEcho(command: command, expected: [0x43], received: Array(message.prefix(1)))
            }
            var body = Array(message.dropFirst())
            if body.count % 2 == 1 { body.removeFirst() }
            for index in stride(from: 0, to: body.count, by: 2) {
                let (a, b) = (body[index], body[index + 1])
                if a == 0 && b == 0 { continue }
                codes.append(troubleCode(a, b))
            }
        }
        return codes
    }

    /// One trouble code: the top two bits of `a` are the letter (P, C, B, U), the next two the first digit, then
    /// three hex digits: `01 33` → "P0133".
    public static func troubleCode(_ a: UInt8, _ b: UInt8) -> String {
        let letter = ["P", "C", "B", "U"][Int(a >> 6)]
        let digits =
            String(Int(a >> 4) & 0x3) + OBDResponseError.hex([a & 0x0F]).dropFirst()
            + OBDResponseError.hex([b])
        return letter + digits
    }

    /// The VIN from a mode-09 PID-02 answer (`49 02 01` + 17 ASCII characters; padding bytes dropped).
    public static func vin(_ messages: [[UInt8]], command: String = "0902") throws(OBDResponseError) -> String {
        guard let message = messages.first(where: { $0.starts(with: [0x49, 0x02]) }) else {
            throw .wrongEcho(
                command: command, expected: [0x49, 0x02], received: Array((messages.first ?? []).prefix(2)))
        }
        // After 49 02 comes the number of data items (01), then the characters.
        let characters = message.dropFirst(3).filter { $0 >= 0x20 && $0 < 0x7F }
        guard characters.count >= 17 else {
            throw .truncated(command: command, expected: 20, received: message.count)
        }
        return String(decoding: characters.suffix(17), as: UTF8.self)
    }
}
