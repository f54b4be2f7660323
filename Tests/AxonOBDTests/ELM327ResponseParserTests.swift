import AxonOBD
import Testing

@Suite("ELM327 answers: framing, multi-frame CAN, typed errors")
struct ELM327ResponseParserTests {
    @Test(
        "well-formed answers give their messages",
        arguments: [
            ("410C1AF8\r\r", "010C", [[0x41, 0x0C, 0x1A, 0xF8]]),
            ("41 0C 1A F8 \r\r", "010C", [[0x41, 0x0C, 0x1A, 0xF8]]),
            ("010C\r41 0C 1A F8\r\r", "010C", [[0x41, 0x0C, 0x1A, 0xF8]]),  // echo still on
            ("SEARCHING...\r4100BE3FA813\r\r", "0100", [[0x41, 0x00, 0xBE, 0x3F, 0xA8, 0x13]]),
            ("BUS INIT: ...OK\r410D37\r", "010D", [[0x41, 0x0D, 0x37]]),
            ("410D37\r410D38\r", "010D", [[0x41, 0x0D, 0x37], [0x41, 0x0D, 0x38]]),  // two ECUs
            ("4300\r", "03", [[0x43, 0x00]]),
        ] as [(String, String, [[UInt8]])])
    func wellFormed(text: String, command: String, expected: [[UInt8]]) throws {
        #expect(try ELM327ResponseParser.messages(text, command: command) == expected)
    }

    @Test("a multi-frame CAN answer is assembled and cut to its byte count")
    func multiFrame() throws {
        // The emulator's VIN answer: 0x14 = 20 bytes over three frames (the last padded).
        let text = "014\r0: 490201575030\r1: 5A5A5A39395A54\r2: 53333930303030\r\r"
        let messages = try ELM327ResponseParser.messages(text, command: "0902")
        #expect(messages.count == 1)
        #expect(messages[0].count == 20)
        #expect(try OBDDecoder.vin(messages) == "WP0ZZZ99ZTS390000")
    }

    @Test(
        "the dongle's error answers are typed errors",
        arguments: [
            ("NO DATA\r", OBDResponseError.noData(command: "015C")),
            ("SEARCHING...\rUNABLE TO CONNECT\r", .unableToConnect(command: "015C")),
            ("?\r", .notUnderstood(command: "015C")),
            ("CAN ERROR\r", .busError(command: "015C", message: "CAN ERROR")),
            ("BUS INIT: ...ERROR\r", .busError(command: "015C", message: "BUS INIT: ...ERROR")),
            ("STOPPED\r", .busError(command: "015C", message: "STOPPED")),
            ("BUFFER FULL\r", .busError(command: "015C", message: "BUFFER FULL")),
            ("\r\r", .empty(command: "015C")),
        ])
    func dongleErrors(text: String, expected: OBDResponseError) {
        #expect(throws: expected) { try ELM327ResponseParser.messages(text, command: "015C") }
    }

    @Test(
        "malformed answers are typed errors",
        arguments: [
            ("HELLO WORLD\r", OBDResponseError.garbage(command: "010C", line: "HELLO WORLD")),
            ("410C1\r", .truncated(command: "010C", expected: 3, received: 2)),  // odd number of hex digits
            ("41 0C 1A Z8\r", .garbage(command: "010C", line: "41 0C 1A Z8")),
            ("014\r0: 490201575030\r1: 5A5A5A39395A54\r", .truncated(command: "010C", expected: 20, received: 13)),
            ("014\r0: 490201575030\r2: 53333930303030\r", .garbage(command: "010C", line: "2: 53333930303030")),
            ("3: 410C\r", .garbage(command: "010C", line: "3: 410C")),  // a frame without its byte count
        ])
    func malformed(text: String, expected: OBDResponseError) {
        #expect(throws: expected) { try ELM327ResponseParser.messages(text, command: "010C") }
    }

    @Test("an answer for another PID or mode, or too short for the PID, is a typed error")
    func wrongEchoAndShortData() throws {
        let speed = try ELM327ResponseParser.messages("410D37\r", command: "010C")
        #expect(throws: OBDResponseError.wrongEcho(command: "010C", expected: [0x41, 0x0C], received: [0x41, 0x0D])) {
            try OBDDecoder.mode01Data(speed, pid: 0x0C, byteCount: 2, command: "010C")
        }
        let mode = try ELM327ResponseParser.messages("7F0112\r", command: "010C")
        #expect(throws: OBDResponseError.wrongEcho(command: "010C", expected: [0x41, 0x0C], received: [0x7F, 0x01])) {
            try OBDDecoder.mode01Data(mode, pid: 0x0C, byteCount: 2, command: "010C")
        }
        let short = try ELM327ResponseParser.messages("410C1A\r", command: "010C")
        #expect(throws: OBDResponseError.truncated(command: "010C", expected: 4, received: 3)) {
            try OBDDecoder.mode01Data(short, pid: 0x0C, byteCount: 2, command: "010C")
        }
    }
}
