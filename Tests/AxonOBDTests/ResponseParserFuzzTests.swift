import AxonOBD
import AxonStreams
import Testing

@Suite("ELM327 response parser under random and mutated input")
struct ResponseParserFuzzTests {
    static let seeds = [
        "410C1AF8\r\r", "SEARCHING...\r4100BE3FA813\r\r",
        "014\r0: 490201575030\r1: 5A5A5A39395A54\r2: 53333930303030\r",
        "NO DATA\r", "41 0D 37\r", "4300\r", "?\r", "BUS INIT: ...OK\r410D37\r",
    ]
    static let alphabet = Array("0123456789ABCDEFabcdef :\r\n>?.SEARCHINGNODATZ".utf8)

    /// 40 000 inputs: random bytes, random text over the ELM327 alphabet, and valid answers with bytes flipped,
    /// dropped, duplicated or inserted. Each must give messages or an ``OBDResponseError`` (the signature allows
    /// nothing else), never crash; a decoded PID must satisfy its own checks.
    @Test("never crashes; always messages or a typed error; decoded data is what the PID needs")
    func fuzz() {
        var random = SplitMix64(seed: 0x0BD2_2026)
        var parsed = 0
        var rejected = 0
        var decoded = 0
        for iteration in 0..<40_000 {
            let bytes: [UInt8]
            switch iteration % 3 {
            case 0:
                bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                    Self.alphabet.randomElement(using: &random)!
                }
            default:
                var seed = Array(Self.seeds.randomElement(using: &random)!.utf8)
                for _ in 0..<Int.random(in: 1...4, using: &random) where !seed.isEmpty {
                    let index = Int.random(in: 0..<seed.count, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: seed[index] = UInt8.random(in: 0...255, using: &random)
                    case 1: seed.remove(at: index)
                    case 2: seed.insert(seed[index], at: index)
                    default: seed.insert(Self.alphabet.randomElement(using: &random)!, at: index)
                    }
                }
                bytes = seed
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let messages = try ELM327ResponseParser.messages(text, command: "010C")
                parsed += 1
                #expect(!messages.isEmpty)
                if let data = try? OBDDecoder.mode01Data(messages, pid: 0x0C, byteCount: 2, command: "010C") {
                    decoded += 1
                    #expect(data.count == 2)
                    let rpm = OBDStandardPID.engineSpeed.decode(data)
                    #expect(rpm >= 0 && rpm <= 16_383.75)
                }
                _ = try? OBDDecoder.troubleCodes(messages)
                _ = try? OBDDecoder.vin(messages)
            } catch {
                rejected += 1
                #expect(!error.description.isEmpty)
            }
        }
        print("ELM327 fuzz: 40000 inputs, \(parsed) parsed, \(rejected) typed errors, \(decoded) decoded as 010C")
        #expect(parsed + rejected == 40_000)
        #expect(parsed > 1_000 && rejected > 1_000 && decoded > 50)
    }
}
